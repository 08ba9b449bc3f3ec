import { keyLimitsProblem, planLimits, type Limits } from './plans.ts';

/**
 * The limits a request without a valid key is counted at when none are chosen: the Free plan's.
 * The contract gives no limits for such requests; a deployment profile may choose others
 * (`keylessLimit`, docs/drift.md).
 */
export const defaultKeylessLimits: Limits = planLimits.free;

/** The keyless limits in force: the ones given, each absent one the Free plan's. */
export function keylessLimitsOf(given: Partial<Limits> | undefined): Limits {
  return { perMinute: given?.perMinute ?? defaultKeylessLimits.perMinute, perDay: given?.perDay ?? defaultKeylessLimits.perDay };
}

/** Why keyless limits cannot be taken, or undefined when they can (whole numbers, as a key's own limits). */
export function keylessLimitsProblem(given: Partial<Limits> | undefined): string | undefined {
  const problem = given === undefined ? undefined : keyLimitsProblem(given);
  return problem && `keylessLimits.${problem.field} is ${String(given![problem.field])}: it ${problem.problem}.`;
}

/** The bucket of an address: ids of addresses (`ip:…`) never collide with keys' (`key:…`). */
export const anonymousBucketId = (ip: string): string => `ip:${ip}`;

/**
 * Whose quota a request without a valid key spends: its client address's, at the keyless limits
 * (`keylessLimitsOf`). The one statement of that rule, for every backend and for the client report.
 */
export function anonymousBucket(ip: string, limits: Limits): { bucketId: string; limits: Limits } {
  return { bucketId: anonymousBucketId(ip), limits };
}
