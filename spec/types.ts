/**
 * The contract's types for TypeScript code, derived from spec/openapi.yaml by
 * openapi-typescript (`npm run gen:types` writes spec/openapi.gen.ts; a test keeps it current).
 */
import type { components, paths, operations } from './openapi.gen.ts';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type Pets = components['schemas']['Pets'];
export type ErrorBody = components['schemas']['Error'];
export type { components, paths, operations };

/** The PetStatus enumeration's values, in the contract's order. */
export const petStatuses = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[];
