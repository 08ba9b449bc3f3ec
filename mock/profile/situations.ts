// The situations a deployment answers with an Error, as a profile names them, and the mock's own
// code for each (mock/errors/errorCatalogue.ts). `pinned` is the status the contract demands
// (its Errors table and endpoint tables); where it has none, the status is the deployment's choice.
import type { ErrorCode } from '../errors/errorCatalogue.ts';

export interface Situation {
  /** The mock's code for it. */
  code: ErrorCode;
  /** The mock's status for it. */
  status: number;
  /** The status the contract pins, when it pins one: a profile may not change it. */
  pinned?: number;
  /** What the situation is, in a report's words. */
  title: string;
  /** A reason a body of this situation is refused: answered as that situation when the profile gives the reason no answer. */
  reasonOf?: 'invalidBody';
}

export const situations = {
  invalidQuery: { code: 'INVALID_QUERY_PARAMETER', status: 400, title: 'a bad query parameter (`limit=0`, an unknown `status`)' },
  unknownQuery: { code: 'UNKNOWN_QUERY_PARAMETER', status: 400, title: 'a query parameter the contract does not define, when refused' },
  invalidPathParameter: { code: 'INVALID_PATH_PARAMETER', status: 400, title: 'a `petId` that is not an int64' },
  invalidBody: { code: 'INVALID_BODY', status: 400, pinned: 400, title: 'a create body missing fields or with invalid values' },
  // The reasons a profile refuses a create body NewPet's schema takes (bodyRefusal.ts): each its own
  // code when the profile gives one, else invalidBody's answer. Their status is invalidBody's 400.
  unknownBodyField: { code: 'INVALID_BODY', status: 400, pinned: 400, reasonOf: 'invalidBody', title: 'a create body with a field NewPet lacks, when refused (`unknownBodyFields`)' },
  nameTooLong: { code: 'INVALID_BODY', status: 400, pinned: 400, reasonOf: 'invalidBody', title: 'a create body whose `name` is longer than the deployment takes (`maxNameLength`)' },
  categoryOutOfRange: { code: 'INVALID_BODY', status: 400, pinned: 400, reasonOf: 'invalidBody', title: 'a create body whose `categoryId` is outside the range the deployment takes (`categoryIdRange`)' },
  malformedJson: { code: 'MALFORMED_JSON', status: 400, title: 'a create body that is not JSON' },
  unauthorized: { code: 'UNAUTHORIZED', status: 401, pinned: 401, title: 'a missing or invalid API key' },
  petNotFound: { code: 'PET_NOT_FOUND', status: 404, pinned: 404, title: 'an unknown `petId`' },
  routeNotFound: { code: 'ROUTE_NOT_FOUND', status: 404, title: 'a path the API does not serve' },
  methodNotAllowed: { code: 'METHOD_NOT_ALLOWED', status: 405, title: 'a method a path does not serve' },
  payloadTooLarge: { code: 'PAYLOAD_TOO_LARGE', status: 413, title: 'a body over the deployment\'s limit' },
  unsupportedMediaType: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, title: 'a create body that is not `application/json`' },
  rateLimited: { code: 'RATE_LIMITED', status: 429, pinned: 429, title: 'a spent quota' },
  banned: { code: 'API_KEY_BANNED', status: 429, pinned: 429, title: 'a key banned for sending while rate limited' },
} as const satisfies Record<string, Situation>;

export type SituationName = keyof typeof situations;

/** The reasons a profile refuses a create body, each an Error situation of its own (bodyRefusal.ts). */
export const bodyReasons = ['unknownBodyField', 'nameTooLong', 'categoryOutOfRange'] as const satisfies readonly SituationName[];
export type BodyReason = (typeof bodyReasons)[number];
export const situationNames = Object.keys(situations) as SituationName[];

/** The situation the mock answered with this code, if a profile can name it (a body refusal's reason is told by bodyRefusal, not by the code). */
export function situationOfCode(code: string): SituationName | undefined {
  return situationNames.find((name) => situations[name].code === code && (situations[name] as Situation).reasonOf === undefined);
}

/** The status the contract pins for the situation, if it pins one. */
export const pinnedStatus = (name: SituationName): number | undefined => (situations[name] as Situation).pinned;
