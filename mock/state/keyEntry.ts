import { redactKey } from './redactKey.ts';
import type { ApiKeyConfig, ApiKeyEntry } from './stateParts.ts';
import { defaultEnterpriseLimits, isPlan, keyLimitsProblem, planLimits } from '../rateLimits/plans.ts';
import { sha256Base64 } from './sha256.ts';

/** A key's SHA-256 digest: what the state stores and looks a key up by, never the key itself. */
export function keyDigest(key: string): string {
  return sha256Base64(key);
}

/**
 * The entry a key config makes, in memory and on Redis alike: one check of its plan and limits,
 * so both backends accept and refuse the same keys (a perMinute of 0 is refused by both).
 */
export function keyEntry(config: ApiKeyConfig): { digest: string; entry: ApiKeyEntry } {
  if (!isPlan(config.plan)) {
    throw new Error(`API key ${redactKey(config.key)} has plan "${String(config.plan)}". Use one of free, pro, business, enterprise.`);
  }
  const bad = keyLimitsProblem(config);
  if (bad) throw new Error(`API key ${redactKey(config.key)} has ${bad.field} ${String(config[bad.field])}, which ${bad.problem}. Give a limit in that range.`);
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
