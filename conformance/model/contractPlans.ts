// The contract's "Rate limits by plan" table, as the suite reads it (the suite keeps its own reading
// of the contract, never the mock's): a key whose plan the run is told is held to its row.

export const contractPlanNames = ['free', 'pro', 'business', 'enterprise'] as const;
export type ContractPlan = (typeof contractPlanNames)[number];

/**
 * "| Free | 60 | 1,000 | Pro | 300 | 10,000 | Business | 1,000 | 100,000 | Enterprise | custom |
 * custom |": requests per minute and per day; an Enterprise key's are its own, so none is known.
 */
export const contractPlanLimits: Readonly<Record<ContractPlan, { perMinute: number; perDay: number } | undefined>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: undefined,
};

/** The plans the run was told, by key (`key`: --api-key, `key2`: --api-key-2). */
export type KeyPlans = Readonly<Partial<Record<string, ContractPlan>>>;
