// listPets' parameters as the loaded document gives them: limit's bounds and default, and the
// PetStatus values of the status filter.
import { findOperation, type LoadedSpec } from '../../spec/loadSpec.ts';

/** limit's schema bounds from the document, e.g. its maximum. */
export function limitBounds(spec: LoadedSpec): { min: number; max: number; byDefault: number } {
  const limit = findOperation(spec, 'listPets').parameters.find((p) => p.name === 'limit');
  const schema = (limit?.schema ?? {}) as { minimum?: number; maximum?: number; default?: number };
  return { min: schema.minimum ?? 1, max: schema.maximum ?? 100, byDefault: schema.default ?? 20 };
}

/** The PetStatus values the status parameter takes, from the document. */
export function statusValues(spec: LoadedSpec): string[] {
  const status = findOperation(spec, 'listPets').parameters.find((p) => p.name === 'status');
  return ((status?.schema as { enum?: unknown[] } | undefined)?.enum ?? []).map(String);
}
