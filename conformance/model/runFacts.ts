// What a run's judges know beside the exchanges: the contract's schemas, the pets the preflight
// listed (the ids and categories a plan chose from), the run's bound on the rate-limit probe.
import type { SpecValidators } from '../specValidators.ts';

/** A pet the deployment listed, with its id's exact digits (ids past 2^53 lose them in a double). */
export interface KnownPet {
  id: number;
  idText: string;
  name?: unknown;
  categoryId?: unknown;
  status?: unknown;
}

export interface RunFacts {
  validators: SpecValidators;
  /** The pets the preflight's plain `GET /pets` listed. */
  knownPets: readonly KnownPet[];
  /** The most requests the rate-limit probe may spend to reach a 429. */
  probeMaxRequests: number;
  /** Others may spend the key during the run (`--shared-key`): a 429 earlier than announced is theirs to have caused. */
  sharedKey?: boolean;
}

/**
 * The categoryIds the deployment's own pets have, as exact digits: the only ones surely valid,
 * since the contract lists no categories. Empty for a deployment that lists no pets.
 */
export function knownCategoryIds(knownPets: readonly KnownPet[]): string[] {
  return [...new Set(knownPets.flatMap((p) => (typeof p.categoryId === 'bigint' || Number.isSafeInteger(p.categoryId) ? [String(p.categoryId)] : [])))];
}
