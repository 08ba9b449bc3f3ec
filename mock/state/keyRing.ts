import { hash } from 'node:crypto';
import type { KeyDirectory } from './stateParts.ts';
import { defaultEnterpriseLimits, isPlan, keyLimitsProblem, planLimits, type Limits, type Plan } from './plans.ts';

export interface ApiKeyConfig {
  key: string;
  plan: Plan;
  /** Only for custom limits (the Enterprise plan's are "custom" in the contract). */
  perMinute?: number;
  perDay?: number;
}

export interface ApiKeyEntry {
  /** What rate-limit counters are kept under: derived from the key's digest, never the key itself. */
  bucketId: string;
  /** A label safe to log. */
  label: string;
  plan: Plan;
  limits: Limits;
}

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
    if (!isPlan(config.plan)) {
      throw new Error(`API key ${redactKey(config.key)} has plan "${String(config.plan)}". Use one of free, pro, business, enterprise.`);
    }
    const bad = keyLimitsProblem(config);
    if (bad) throw new Error(`API key ${redactKey(config.key)} has ${bad.field} ${String(config[bad.field])}, which ${bad.problem}. Give a limit in that range.`);
    const base = config.plan === 'enterprise' ? defaultEnterpriseLimits : planLimits[config.plan];
    const digest = sha256(config.key);
    const entry: ApiKeyEntry = {
      bucketId: `key:${digest}`,
      label: redactKey(config.key),
      plan: config.plan,
      limits: { perMinute: config.perMinute ?? base.perMinute, perDay: config.perDay ?? base.perDay },
    };
    this.#byDigest.set(digest, entry);
    return entry;
  }

  /** Forgets every key, then accepts exactly these. */
  replaceAll(keys: readonly ApiKeyConfig[]): void {
    this.#byDigest.clear();
    for (const key of keys) this.set(key);
  }

  has(key: string): boolean {
    return this.find(key) !== undefined;
  }

  delete(key: string): boolean {
    return this.#byDigest.delete(sha256(key));
  }

  find(key: string): ApiKeyEntry | undefined {
    return this.#byDigest.get(sha256(key));
  }
}

function sha256(value: string): string {
  return hash('sha256', value, 'base64');
}

/** A key as it may appear in logs: its first four characters and its length. */
export function redactKey(key: string): string {
  return `${key.slice(0, Math.min(4, Math.floor(key.length / 2)))}…(${key.length})`;
}
