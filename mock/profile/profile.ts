// A deployment profile: the open choices one deployment makes where the contract says "not shown",
// in a documented JSON format (profile.schema.json, docs/drift.md). A drift run writes one from
// what it observed (`pets-conformance drift --write-profile`); a team may write one by hand. The
// mock given one (`openMock({ profile })`, `pets-mock --profile`) makes the same choices.
import { readFile } from 'node:fs/promises';
import type { PetStatus } from '../../spec/types.ts';
import { schemaCheck } from '../../common/schemaCheck.ts';
import schema from './profile.schema.json' with { type: 'json' };
import { pinnedStatus, situations, type SituationName } from './situations.ts';

export interface ErrorAnswerChoice {
  /** Only where the contract pins no status. */
  status?: number;
  code?: string;
}

/** Every field optional: an absent one leaves the mock's own choice (docs/contract-choices.md). */
export interface DeploymentProfile {
  $schema?: string;
  profileVersion?: 1;
  describes?: string;
  defaultStatus?: PetStatus | null;
  listOrder?: 'newest-first' | 'oldest-first';
  errors?: Partial<Record<SituationName, ErrorAnswerChoice>>;
  unknownQueryParameters?: 'ignored' | 'refused';
  unknownBodyFields?: 'ignored' | 'refused';
  maxNameLength?: number | null;
  /** The largest request body read, in bytes; a larger one gets the `payloadTooLarge` error. */
  bodyLimit?: number;
  retryAfter?: 'seconds' | 'http-date';
  deprecation?: string | null;
  wwwAuthenticate?: boolean;
  cors?: 'any' | 'echo' | 'none';
  storeOrders?: 'served' | 'absent';
  /** The ban rule; null: the deployment bans no key. */
  ban?: { threshold?: number; seconds?: number } | null;
  /** Per minute (a number), or per minute and per day: the limits requests without a valid key are counted at. */
  keylessLimit?: number | { perMinute?: number; perDay?: number };
  extraPetFields?: Record<string, unknown>;
  extraErrorFields?: Record<string, unknown>;
}

export const profileSchema: object = schema;

/** A profile the format refuses, with every reason. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
}

/**
 * The profile, checked against profile.schema.json and the contract: a status the contract pins
 * (400 for a bad create body, 401, 404 for an unknown pet, 429) cannot be chosen otherwise, and
 * extra fields cannot reuse the contract's names. Throws ProfileError naming every problem.
 */
export function checkProfile(value: unknown, source = 'the profile'): DeploymentProfile {
  // Every problem at once: a profile is written whole (by hand, or by a drift run), not option by option.
  const problems = schemaCheck(schema, { all: true, whole: '(the profile)' })(value);
  if (problems.length === 0) {
    const profile = value as DeploymentProfile;
    for (const [name, choice] of Object.entries(profile.errors ?? {}) as [SituationName, ErrorAnswerChoice][]) {
      const pinned = pinnedStatus(name);
      if (choice.status !== undefined && pinned !== undefined && choice.status !== pinned) problems.push(`errors.${name}.status is ${choice.status}, but the contract answers ${situations[name].title} with ${pinned}: leave it out`);
    }
    for (const name of Object.keys(profile.extraPetFields ?? {})) if (['id', 'name', 'categoryId', 'status'].includes(name)) problems.push(`extraPetFields.${name} is a Pet field of the contract, not an extra one`);
    for (const name of Object.keys(profile.extraErrorFields ?? {})) if (['code', 'message', 'status'].includes(name)) problems.push(`extraErrorFields.${name} is an Error field of the contract, not an extra one`);
  }
  if (problems.length > 0) throw new ProfileError(`${source} is not a deployment profile (docs/drift.md): ${problems.join('; ')}.`);
  return value as DeploymentProfile;
}

/** Reads and checks a profile file. */
export async function loadProfile(file: string): Promise<DeploymentProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ProfileError(`cannot read the profile ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  return checkProfile(value, file);
}
