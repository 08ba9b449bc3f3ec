// A deployment profile: the open choices one deployment makes where the contract says "not shown",
// in a documented JSON format (profile.schema.json, docs/drift.md). A drift run writes one from
// what it observed (`pets-conformance drift --write-profile`); a team may write one by hand. The
// mock given one (`openMock({ profile })`, `pets-mock --profile`) makes the same choices.
import { readFile } from 'node:fs/promises';
import type { PetStatus } from '../../spec/types.ts';
import { schemaCheck } from '../../common/schemaCheck.ts';
import { ajvView, parseJsonExact } from '../../common/json/exactJson.ts';
import schema from './profile.schema.json' with { type: 'json' };
import { bundledSpec } from '../../spec/bundledSpec.ts';
import { deprecatedOperations } from '../pipeline/deprecationMarks.ts';
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
  listOrder?: 'newest-first' | 'oldest-first' | 'unstable';
  errors?: Partial<Record<SituationName, ErrorAnswerChoice>>;
  unknownQueryParameters?: 'ignored' | 'refused';
  unknownBodyFields?: 'ignored' | 'refused';
  maxNameLength?: number | null;
  /** The categoryIds a create accepts; one outside gets the `invalidBody` error. */
  categoryIdRange?: { minimum?: number | bigint; maximum?: number | bigint };
  /** The largest request body read, in bytes; a larger one gets the `payloadTooLarge` error. */
  bodyLimit?: number;
  retryAfter?: 'seconds' | 'http-date';
  deprecation?: string | null;
  /** The `Sunset` field of GET /pets/{petId} as sent (an HTTP-date on 5 December 2030), or null for none. */
  sunset?: string | null;
  wwwAuthenticate?: boolean;
  /** Whether a 201 of POST /pets carries `Location`. */
  location?: boolean;
  cors?: 'any' | 'echo' | 'none';
  /** `ETag` on every 200 to a GET under the API, and (`conditional`) 304 to a matching `If-None-Match`; null or absent: no ETag. */
  etag?: 'conditional' | 'sent' | null;
  storeOrders?: 'served' | 'absent';
  /** A request without a valid key to an unserved method or path: 404/405 (`routed`) or 401 first (`unauthorized`). */
  keylessUnlisted?: 'routed' | 'unauthorized';
  /** OPTIONS answered as a CORS preflight on every path (`answered`), or a method the API does not serve (`unlisted`). */
  preflight?: 'answered' | 'unlisted';
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

/** The mark checkProfile leaves on a profile it passed. */
const checked = Symbol('checked deployment profile');

/**
 * The profile, checked against profile.schema.json and the contract: a status the contract pins
 * (400 for a bad create body, 401, 404 for an unknown pet, 429) cannot be chosen otherwise, and
 * extra fields cannot reuse the contract's names. Throws ProfileError naming every problem; else
 * returns a frozen copy (checkedCopy).
 */
export function checkProfile(value: unknown, source = 'the profile'): DeploymentProfile {
  // Every problem at once: a profile is written whole (by hand, or by a drift run), not option by option.
  // Read through ajvView: a bound past 2^53 - 1 (read exactly, a BigInt) is checked as the whole number it is.
  const problems = schemaCheck(schema, { all: true, whole: '(the profile)' })(ajvView(value));
  if (problems.length === 0) {
    const profile = value as DeploymentProfile;
    for (const [name, choice] of Object.entries(profile.errors ?? {}) as [SituationName, ErrorAnswerChoice][]) {
      const pinned = pinnedStatus(name);
      if (choice.status !== undefined && pinned !== undefined && choice.status !== pinned) problems.push(`errors.${name}.status is ${choice.status}, but the contract answers ${situations[name].title} with ${pinned}: leave it out`);
    }
    const range = profile.categoryIdRange;
    if (range?.minimum !== undefined && range.maximum !== undefined && range.minimum > range.maximum) problems.push(`categoryIdRange.minimum ${range.minimum} is above its maximum ${range.maximum}: no create could succeed`);
    if (typeof profile.sunset === 'string' && !onRemovalDay(profile.sunset)) problems.push(`sunset ${JSON.stringify(profile.sunset)} is not ${removalWanted()}`);
    for (const name of Object.keys(profile.extraPetFields ?? {})) if (['id', 'name', 'categoryId', 'status'].includes(name)) problems.push(`extraPetFields.${name} is a Pet field of the contract, not an extra one`);
    for (const name of Object.keys(profile.extraErrorFields ?? {})) if (['code', 'message', 'status'].includes(name)) problems.push(`extraErrorFields.${name} is an Error field of the contract, not an extra one`);
  }
  if (problems.length > 0) throw new ProfileError(`${source} is not a deployment profile (docs/drift.md): ${problems.join('; ')}.`);
  return checkedCopy(value as DeploymentProfile);
}

/**
 * A frozen copy of a profile that passed the check, marked so: openMock, handed it by pets-mock,
 * need not compile the schema to check it again, nothing can change it after the check, and the
 * caller's own object is left as it was.
 */
function checkedCopy(profile: DeploymentProfile): DeploymentProfile {
  const copy = structuredClone(profile);
  Object.defineProperty(copy, checked, { value: true });
  return deepFreeze(copy);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** The profile, checked unless it is what checkProfile (or loadProfile) returned. */
export function checkProfileOnce(value: unknown, source = 'the profile'): DeploymentProfile {
  return value !== null && typeof value === 'object' && (value as { [checked]?: boolean })[checked] === true ? (value as DeploymentProfile) : checkProfile(value, source);
}

/**
 * The day the contract names for getPet's removal ("to be removed on 5 December 2030", Versioning 3),
 * UTC: the spec's `x-sunset`, which the mock's own Sunset field is made from (deprecationMarks.ts).
 */
function removalDay(): { from: number; to: number } | undefined {
  const from = deprecatedOperations(bundledSpec(), '').get('getPet')?.removal;
  return from === undefined ? undefined : { from, to: from + 24 * 60 * 60 * 1000 };
}

/**
 * Whether a Sunset value is an IMF-fixdate (RFC 9110, 5.6.7; RFC 8594, 3) on the removal day: the
 * contract pins the day, so no other may be chosen. An IMF-fixdate is exactly what toUTCString writes.
 */
export function onRemovalDay(value: string): boolean {
  const day = removalDay();
  const at = Date.parse(value);
  return day !== undefined && at >= day.from && at < day.to && new Date(at).toUTCString() === value;
}

/** What a profile's Sunset must be, in a message's words: `an HTTP-date on 5 December 2030 ... (\`Thu, 05 Dec 2030 00:00:00 GMT\`)`. */
function removalWanted(): string {
  const day = removalDay();
  if (day === undefined) return 'null: the contract names no removal day';
  const words = new Date(day.from).toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
  return `an HTTP-date on ${words}, the removal the contract names (Versioning 3): give one (\`${new Date(day.from).toUTCString()}\`), or null for none`;
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
    value = parseJsonExact(text);
  } catch (error) {
    throw new ProfileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  return checkProfile(value, file);
}
