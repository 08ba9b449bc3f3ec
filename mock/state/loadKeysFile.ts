import { readFile } from 'node:fs/promises';
import type { ApiKeyConfig } from './keyRing.ts';
import { isPlan, limitProblem } from './plans.ts';

/** Reads an API keys file (fixtures/keys.json by default): an array of {key, plan, perMinute?, perDay?}. */
export async function loadKeysFile(file: string): Promise<ApiKeyConfig[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the API keys file ${file}: ${(error as Error).message}. Check the path and that it holds JSON.`);
  }
  if (!Array.isArray(data)) throw new Error(`The API keys file ${file} must hold a JSON array of {key, plan}. Fix the file.`);
  return data.map((item: unknown, index) => {
    const entry = item as Partial<ApiKeyConfig> | null;
    if (!entry || typeof entry.key !== 'string' || entry.key.length === 0 || !isPlan(entry.plan)) {
      throw new Error(`The API keys file ${file} has a bad entry at [${index}]: each needs a non-empty "key" and a "plan" of free, pro, business or enterprise.`);
    }
    for (const field of ['perMinute', 'perDay'] as const) {
      const problem = entry[field] === undefined ? undefined : limitProblem(entry[field]);
      if (problem) throw new Error(`The API keys file ${file} has a bad ${field} at [${index}]: it ${problem}.`);
    }
    return entry as ApiKeyConfig;
  });
}
