/** Rate limits per plan, from the contract's "Rate limits by plan" table. */
export interface Limits {
  perMinute: number;
  perDay: number;
}

export const planNames = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof planNames)[number];

export const planLimits: Record<Exclude<Plan, 'enterprise'>, Limits> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/**
 * Enterprise limits are "custom" in the contract: each enterprise key carries its own.
 * A key of that plan that names none gets these, generous enough for load tests.
 */
export const defaultEnterpriseLimits: Limits = { perMinute: 1_000_000, perDay: 100_000_000 };

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (planNames as readonly string[]).includes(value);
}
