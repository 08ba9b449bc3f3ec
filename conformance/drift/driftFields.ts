// The open choices a drift run observes: each with the profile field it is written to, and the row
// of docs/contract-choices.md it belongs to (the contract says "not shown" there).
import { pinnedStatus, situationNames, situations, type SituationName } from '../../mock/profile/situations.ts';

export interface DriftField {
  /** Its path in a profile: `defaultStatus`, `errors.invalidQuery`. */
  field: string;
  /** What the choice is, in a frontend team's words. */
  title: string;
  /** The Question column of docs/contract-choices.md. */
  row: string;
}

const errorRow = (name: SituationName): string => {
  if (name === 'routeNotFound' || name === 'methodNotAllowed') return 'Unknown routes, wrong methods';
  if (name === 'unsupportedMediaType') return 'Content types';
  if (name === 'unknownQuery') return 'Query parameters the contract does not define (`?offset=100`, `?page=2`)';
  return 'Error `code` values';
};

export const driftFields: readonly DriftField[] = [
  { field: 'defaultStatus', title: 'the status of a pet created without one', row: 'Default `status` on creation' },
  { field: 'listOrder', title: 'the order of GET /pets', row: 'List order' },
  ...situationNames.map((name) => ({ field: `errors.${name}`, title: `the Error answered for ${situations[name].title}${pinnedStatus(name) ? '' : ' (its status and code)'}`, row: errorRow(name) })),
  { field: 'unknownQueryParameters', title: 'a query parameter the contract does not define (`?offset=1`)', row: 'Query parameters the contract does not define (`?offset=100`, `?page=2`)' },
  { field: 'unknownBodyFields', title: 'a create body with a field NewPet lacks', row: 'Fields a client sends that NewPet does not have, and `id`' },
  { field: 'maxNameLength', title: 'the longest `name` a create accepts', row: 'Maximum length of `name`' },
  { field: 'categoryIdRange', title: 'the `categoryId` values a create accepts (0, negative, past 2^53 - 1)', row: 'Values of `name` and `categoryId` a deployment may refuse' },
  { field: 'bodyLimit', title: 'the largest request body read, in bytes', row: 'Maximum request body' },
  { field: 'retryAfter', title: 'the form of `Retry-After` on a 429', row: '`Retry-After` format' },
  { field: 'deprecation', title: 'the `Deprecation` field of GET /pets/{petId}', row: 'Deprecation date of `getPet`' },
  { field: 'sunset', title: 'the `Sunset` field of GET /pets/{petId}', row: 'How `getPet` points to its replacement' },
  { field: 'wwwAuthenticate', title: 'whether a 401 carries `WWW-Authenticate`', row: '`WWW-Authenticate` on a 401' },
  { field: 'location', title: 'whether a 201 carries `Location`', row: 'Headers beyond the contract\'s' },
  { field: 'etag', title: 'whether a 200 to a GET carries `ETag`, and a GET sending it back in `If-None-Match` gets 304', row: 'Headers beyond the contract\'s' },
  { field: 'cors', title: '`Access-Control-Allow-Origin` for a page\'s request', row: 'CORS' },
  { field: 'storeOrders', title: 'whether GET /store/orders is served', row: 'A store order record' },
  { field: 'keylessUnlisted', title: 'an unlisted method or path without a key: 401 first, or 404/405', row: 'Unknown routes, wrong methods' },
  { field: 'preflight', title: 'OPTIONS without a key: answered as a CORS preflight, or as a method the API does not serve', row: 'CORS' },
  { field: 'ban', title: 'the ban after repeated requests once rate limited: after how many refusals, for how long', row: 'Ban rule' },
  { field: 'keylessLimit', title: 'the limit counted for requests without a valid key', row: 'Limits for requests without a valid key' },
  { field: 'extraPetFields', title: 'fields beyond Pet\'s in the pets answered', row: 'Fields beyond the contract\'s in answers' },
  { field: 'extraErrorFields', title: 'fields beyond Error\'s in the errors answered', row: 'Fields beyond the contract\'s in answers' },
];

export const driftField = (field: string): DriftField => driftFields.find((f) => f.field === field) ?? { field, title: field, row: '(none)' };
