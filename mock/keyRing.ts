import { createHash, timingSafeEqual } from 'node:crypto';
import { defaultEnterpriseLimits, isPlan, planLimits, type Limits, type Plan } from './plans.ts';

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
 * The API keys the mock accepts. Keys are looked up by their SHA-256 digest and the digest is
 * compared with timingSafeEqual, so neither the lookup nor the comparison takes longer the more
 * of a guessed key is right.
 */
export class KeyRing {
  #byDigest = new Map<string, { digest: Buffer; entry: ApiKeyEntry }>();

  constructor(keys: readonly ApiKeyConfig[] = []) {
    for (const key of keys) this.set(key);
  }

  set(config: ApiKeyConfig): ApiKeyEntry {
    if (!isPlan(config.plan)) {
      throw new Error(`API key ${redactKey(config.key)} has plan "${String(config.plan)}". Use one of free, pro, business, enterprise.`);
    }
    const base = config.plan === 'enterprise' ? defaultEnterpriseLimits : planLimits[config.plan];
    const digest = sha256(config.key);
    const entry: ApiKeyEntry = {
      bucketId: `key:${digest.toString('base64')}`,
      label: redactKey(config.key),
      plan: config.plan,
      limits: { perMinute: config.perMinute ?? base.perMinute, perDay: config.perDay ?? base.perDay },
    };
    this.#byDigest.set(digest.toString('base64'), { digest, entry });
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
    return this.#byDigest.delete(sha256(key).toString('base64'));
  }

  find(key: string): ApiKeyEntry | undefined {
    const digest = sha256(key);
    const found = this.#byDigest.get(digest.toString('base64'));
    return found && timingSafeEqual(found.digest, digest) ? found.entry : undefined;
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** A key as it may appear in logs: its first four characters and its length. */
export function redactKey(key: string): string {
  return `${key.slice(0, Math.min(4, Math.floor(key.length / 2)))}…(${key.length})`;
}
