import { keyDigest, keyEntry } from './keyEntry.ts';
import type { KeyDirectory } from './stateParts.ts';
import type { ApiKeyConfig, ApiKeyEntry } from './stateParts.ts';
export type { ApiKeyConfig, ApiKeyEntry } from './stateParts.ts';
export { redactKey } from './redactKey.ts';


/**
 * The API keys the mock accepts, held by their SHA-256 digest, never as themselves. A presented
 * key is hashed and looked up by its digest, so how long the lookup takes depends on the digest,
 * which says nothing about how much of a guessed key was right: the comparison of keys is constant
 * time, as comparing MACs by digest is.
 */
export class KeyRing implements KeyDirectory {
  #byDigest = new Map<string, ApiKeyEntry>();

  constructor(keys: readonly ApiKeyConfig[] = []) {
    for (const key of keys) this.set(key);
  }

  set(config: ApiKeyConfig): ApiKeyEntry {
    const { digest, entry } = keyEntry(config);
    this.#byDigest.set(digest, entry);
    return entry;
  }

  /** Forgets every key, then accepts exactly these. */
  /** All or nothing, as on Redis: every config is checked before any key changes. */
  replaceAll(keys: readonly ApiKeyConfig[]): void {
    const entries = keys.map(keyEntry);
    this.#byDigest = new Map(entries.map(({ digest, entry }) => [digest, entry]));
  }

  has(key: string): boolean {
    return this.find(key) !== undefined;
  }

  delete(key: string): boolean {
    return this.#byDigest.delete(keyDigest(key));
  }

  find(key: string): ApiKeyEntry | undefined {
    return this.#byDigest.get(keyDigest(key));
  }
}
