import type { ApiKeyConfig } from '../state/keyRing.ts';
import { keyEntry } from '../state/keyEntry.ts';

/** The (digest, entry JSON) pairs the replace script takes. */
export function keyArguments(configs: readonly ApiKeyConfig[]): string[] {
  return configs.flatMap((config) => {
    const { digest, entry } = keyEntry(config);
    return [digest, JSON.stringify(entry)];
  });
}
