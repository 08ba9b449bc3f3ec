/**
 * What the contract asks of the answer to a generated case:
 * - `accept`: a valid request, which must succeed;
 * - `refuse`: an invalid one, which must be refused with a 4xx Error;
 * - `open`: one the contract does not settle (an empty or repeated parameter): either answer is
 *   legal, and a 2xx is reported as a warning only;
 * - `may-refuse`: a valid value a deployment may still refuse by a rule of its own (a categoryId
 *   that names no category): a 4xx Error is legal, and a 2xx must hold what was sent.
 * - `refuse-or-none`: a value outside a filter's enum (`status=Available`): refused with any 4xx
 *   (the contract names none), or answered with only the items that have exactly that value, so
 *   none; a 200 is a warning.
 */
export type Expectation = 'accept' | 'refuse' | 'open' | 'may-refuse' | 'refuse-or-none';

export interface ValueCase {
  /** Stable, the last parts of the case name: `limit/max`, `categoryId/float`. */
  name: string;
  /** What the case sends, in words for findings: `limit 101`, `categoryId 1.5`. */
  what: string;
  expect: Expectation;
  /** The rule, for findings: `limit is an integer from 1 to 100`. */
  rule: string;
  /**
   * For a refusal, the status the contract names for it (createPet: "400 | The body is missing
   * required fields or has invalid values"): pinned, so no other 4xx will do. Absent where the
   * contract names none (a bad `limit`, another media type): any 4xx refuses it.
   */
  refusedWith?: number;
}

export const INT64_MAX = '9223372036854775807';
export const BEYOND_INT64 = '9223372036854775808';
export const BELOW_INT64 = '-9223372036854775809';
