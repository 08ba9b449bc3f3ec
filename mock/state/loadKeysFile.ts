import { readJsonFile } from '../../fixtures/loadFixtures.ts';
import type { ApiKeyConfig } from './keyRing.ts';
import { isPlan, keyLimitsProblem } from '../rateLimits/plans.ts';

/** Reads an API keys file (fixtures/keys.json by default): an array of {key, plan, perMinute?, perDay?}. */
export async function loadKeysFile(file: string): Promise<ApiKeyConfig[]> {
  const data = await readJsonFile(file, 'API keys');
  if (!Array.isArray(data)) throw new Error(`The API keys file ${file} must hold a JSON array of {key, plan}. Fix the file.`);
  return data.map((item: unknown, index) => {
    const entry = item as Partial<ApiKeyConfig> | null;
    if (!entry || typeof entry.key !== 'string' || entry.key.length === 0 || !isPlan(entry.plan)) {
      throw new Error(`The API keys file ${file} has a bad entry at [${index}]: each needs a non-empty "key" and a "plan" of free, pro, business or enterprise.`);
    }
    const bad = keyLimitsProblem(entry);
    if (bad) throw new Error(`The API keys file ${file} has a bad ${bad.field} at [${index}]: it ${bad.problem}.`);
    return entry as ApiKeyConfig;
  });
}
