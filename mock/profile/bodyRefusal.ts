// Why a deployment profile refuses a create body the mock itself takes: a field NewPet lacks (when
// `unknownBodyFields` is 'refused'), a `name` longer than `maxNameLength`, a `categoryId` outside
// `categoryIdRange`. Each reason is an Error situation of its own (situations.ts), so a profile can
// give it its own code; absent, it is answered as `invalidBody`. Only a body NewPet's schema takes
// is screened: one the schema refuses is `invalidBody` ("missing required fields or has invalid
// values"), whatever else it has. Checked in this order, which drift's classifier follows too.
import type { DeploymentProfile } from './profile.ts';
import type { BodyReason } from './situations.ts';

export interface BodyRefusal {
  reason: BodyReason;
  /** The Error's message. */
  message: string;
}

const newPetFields = new Set(['name', 'categoryId', 'status']);
const petStatuses = new Set(['available', 'pending', 'sold']);
const int64Ends = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** A whole-number categoryId as read exactly (a BigInt past 2^53 - 1), if it is one. */
const wholeNumber = (value: unknown): number | bigint | undefined => ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint' ? value : undefined);

/** Whether NewPet's schema takes the body (name a string, categoryId an int64, status a PetStatus if sent): fields beyond it aside. */
function newPetShaped(body: Record<string, unknown>): boolean {
  const categoryId = wholeNumber(body.categoryId);
  return typeof body.name === 'string' && categoryId !== undefined && BigInt(categoryId) >= int64Ends.min && BigInt(categoryId) <= int64Ends.max && (body.status === undefined || (typeof body.status === 'string' && petStatuses.has(body.status)));
}

/** Why the profile refuses a create body (parsed exactly: big categoryIds as BigInts) the mock would take, or undefined when it takes it too. */
export function bodyRefusal(profile: DeploymentProfile, body: unknown): BodyRefusal | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !newPetShaped(body as Record<string, unknown>)) return undefined;
  const { name, categoryId } = body as { name: string; categoryId: number | bigint };
  const unknown = Object.keys(body).filter((f) => !newPetFields.has(f));
  if (profile.unknownBodyFields === 'refused' && unknown.length > 0) return { reason: 'unknownBodyField', message: `The body has fields a NewPet does not: ${unknown.join(', ')}. Send only name, categoryId and status.` };
  if (typeof profile.maxNameLength === 'number' && [...name].length > profile.maxNameLength) return { reason: 'nameTooLong', message: `name is longer than ${profile.maxNameLength} characters.` };
  const range = profile.categoryIdRange;
  // Compared exactly: a BigInt (a categoryId past 2^53 - 1) against a bound, either a number or a BigInt.
  if (range && ((range.minimum !== undefined && categoryId < range.minimum) || (range.maximum !== undefined && categoryId > range.maximum))) {
    return { reason: 'categoryOutOfRange', message: `categoryId ${categoryId} names no category: send one from ${range.minimum ?? 'any'} to ${range.maximum ?? 'any'}.` };
  }
  return undefined;
}

/** Whether the profile refuses some create bodies the mock takes (bodyRefusal): only then is a create's body read before the core. */
export const screensCreates = (profile: DeploymentProfile): boolean => profile.unknownBodyFields === 'refused' || typeof profile.maxNameLength === 'number' || profile.categoryIdRange !== undefined;
