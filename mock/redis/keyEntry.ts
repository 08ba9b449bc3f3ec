import { hash } from 'node:crypto';
import { redactKey, type ApiKeyConfig, type ApiKeyEntry } from '../state/keyRing.ts';
import { defaultEnterpriseLimits, isPlan, planLimits } from '../state/plans.ts';

/** A key's SHA-256 digest: what the shared state stores and looks up, never the key itself. */
export function keyDigest(key: string): string {
  return hash('sha256', key, 'base64');
}

/** The entry a key config makes, with the same plan check and limits as mock/keyRing.ts. */
export function keyEntry(config: ApiKeyConfig): { digest: string; entry: ApiKeyEntry } {
  if (!isPlan(config.plan)) {
    throw new Error(`API key ${redactKey(config.key)} has plan "${String(config.plan)}". Use one of free, pro, business, enterprise.`);
  }
  const base = config.plan === 'enterprise' ? defaultEnterpriseLimits : planLimits[config.plan];
  const digest = keyDigest(config.key);
  return {
    digest,
    entry: {
      bucketId: `key:${digest}`,
      label: redactKey(config.key),
      plan: config.plan,
      limits: { perMinute: config.perMinute ?? base.perMinute, perDay: config.perDay ?? base.perDay },
    },
  };
}

/** The (digest, entry JSON) pairs the replace script takes. */
export function keyArguments(configs: readonly ApiKeyConfig[]): string[] {
  return configs.flatMap((config) => {
    const { digest, entry } = keyEntry(config);
    return [digest, JSON.stringify(entry)];
  });
}
