import { planLimits, type Limits } from './plans.ts';

/**
 * Whose quota a request without a valid key spends: its client address's, at the Free plan's
 * limits. The one statement of that rule, for every backend and for the client report. Bucket ids
 * of addresses (`ip:…`) never collide with keys' (`key:…`).
 */
export function anonymousBucket(ip: string): { bucketId: string; limits: Limits } {
  return { bucketId: `ip:${ip}`, limits: planLimits.free };
}
