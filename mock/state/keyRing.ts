import { keyDigest, keyEntry } from './keyEntry.ts';
import type { KeyDirectory } from './stateParts.ts';
import type { ApiKeyConfig, ApiKeyEntry } from './stateParts.ts';
export type { ApiKeyConfig, ApiKeyEntry } from './stateParts.ts';
export { redactKey } from './redactKey.ts';


/** How many accepted keys, as presented, the ring remembers without hashing them again. */
const RECENT_KEYS = 256;

/**
 * The API keys the mock accepts, held by their SHA-256 digest, never as themselves. A presented
 * key is hashed and looked up by its digest, so how long the lookup takes depends on the digest,
 * which says nothing about how much of a guessed key was right: the comparison of keys is constant
 * time, as comparing MACs by digest is.
 *
 * A key found valid is remembered as presented (in this process's memory only, never written),
 * for at most RECENT_KEYS keys, so that a client's every request costs one map lookup instead of a
 * hash: a SHA-256 was the largest single item of a list request's own time. Only keys the ring
 * accepts are remembered, so a guess is always hashed, and a hit tells nothing the answer (200, not
 * 401) does not. Any change to the keys forgets them all.
 */
export class KeyRing implements KeyDirectory {
  #byDigest = new Map<string, ApiKeyEntry>();
  readonly #recent = new Map<string, ApiKeyEntry>();

  constructor(keys: readonly ApiKeyConfig[] = []) {
    for (const key of keys) this.set(key);
  }

  set(config: ApiKeyConfig): ApiKeyEntry {
    const { digest, entry } = keyEntry(config);
    this.#recent.clear();
    this.#byDigest.set(digest, entry);
    return entry;
  }

  /** Forgets every key, then accepts exactly these. */
  /** All or nothing, as on Redis: every config is checked before any key changes. */
  replaceAll(keys: readonly ApiKeyConfig[]): void {
    const entries = keys.map(keyEntry);
    this.#recent.clear();
    this.#byDigest = new Map(entries.map(({ digest, entry }) => [digest, entry]));
  }

  has(key: string): boolean {
    return this.find(key) !== undefined;
  }

  delete(key: string): boolean {
    this.#recent.clear();
    return this.#byDigest.delete(keyDigest(key));
  }

  find(key: string): ApiKeyEntry | undefined {
    const recent = this.#recent.get(key);
    if (recent !== undefined) return recent;
    const entry = this.#byDigest.get(keyDigest(key));
    if (entry !== undefined) {
      // Bounded: past RECENT_KEYS, the oldest remembered key goes (it is hashed again when it comes back).
      if (this.#recent.size >= RECENT_KEYS) this.#recent.delete(this.#recent.keys().next().value!);
      this.#recent.set(key, entry);
    }
    return entry;
  }
}
