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

/**
 * The largest per-minute or per-day limit a key may carry: a billion. Limits are whole numbers
 * from 1 to this, so X-RateLimit-Limit is always a plain integer (never `1e+308`).
 */
export const MAX_KEY_LIMIT = 1_000_000_000;

/** Why a per-minute or per-day limit is unusable, or undefined when it is a whole number in range. */
function limitProblem(value: unknown): string | undefined {
  if (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_KEY_LIMIT) return undefined;
  return `must be a whole number from 1 to ${MAX_KEY_LIMIT}`;
}

/** The first of a key's own limits (perMinute, perDay) that is unusable, and why; undefined when both are absent or fine. */
export function keyLimitsProblem(config: { perMinute?: unknown; perDay?: unknown }): { field: 'perMinute' | 'perDay'; problem: string } | undefined {
  for (const field of ['perMinute', 'perDay'] as const) {
    const problem = config[field] === undefined ? undefined : limitProblem(config[field]);
    if (problem) return { field, problem };
  }
  return undefined;
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (planNames as readonly string[]).includes(value);
}
