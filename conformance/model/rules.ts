// The contract's rules the model judges, each with the sentence it rests on. A finding quotes its
// rule's sentence, and the reports' coverage table lists every rule, judged or not reached.

export type RuleId =
  | 'data.created-as-sent'
  | 'data.read-back'
  | 'data.one-id-one-pet'
  | 'data.new-id'
  | 'data.created-found'
  | 'data.list-unique'
  | 'data.status-filter'
  | 'data.limit-bound'
  | 'data.id-exact'
  | 'rate.limit-steady'
  | 'rate.cost'
  | 'rate.no-rise'
  | 'rate.429-only-when-spent'
  | 'rate.429-says-zero'
  | 'rate.retry-after-covers-reset'
  | 'rate.concurrent-counted'
  | 'rate.over-limit-refused'
  | 'wire.utf8'
  | 'wire.no-bom'
  | 'wire.charset'
  | 'wire.one-json-value'
  | 'wire.header-once'
  | 'wire.readable'
  | 'deprecation.only-get-pet'
  | 'deprecation.sunset-date'
  | 'auth.keyless-refused'
  | 'auth.valid-key-accepted'
  | 'unlisted.not-served-without-key'
  | 'unlisted.refusal-shape'
  | 'unlisted.no-5xx'
  | 'equivalent.same-status'
  | 'equivalent.same-cost'
  | 'equivalent.same-data';

export interface Rule {
  id: RuleId;
  /** The check that reports it: its id is what `--checks` selects. */
  checkId: string;
  /** The operations it applies to; `*` for every request, documented or not. */
  operations: readonly string[];
  title: string;
  /** The contract's words (or the RFC's, where the contract defers to HTTP). */
  quote: string;
  /** Why a run may not reach it, shown in the coverage table when it was not judged. */
  reachedBy: string;
  /** What an option of the run must allow for it to be reached: a 429 (`--probe-rate-limit`), or creates (not `--read-only`). */
  needs?: 'probe' | 'writes';
  /**
   * What the rule demands of the status: `pinned` where the contract (or the RFC it defers to)
   * names the status, so that status and no other is right; `open` where it names none, so any
   * status of a class will do (any 4xx, served or refused); `none` where the rule judges something
   * other than the status (a body's bytes, a header's value, the data).
   */
  status: 'pinned' | 'open' | 'none';
  /** The words that pin the status or leave it open; absent for `none`. */
  statusBasis?: string;
}

const named401 = 'Authentication 3: "When the key is missing or invalid, the response is 401 with an Error body."';
const named429 = 'Limits: "Requests over the limit receive 429 Too Many Requests."';
const unlistedOpen = 'The contract lists only its operations ("Other endpoints: not shown"), so it names no status for another method or path: served with the key, or refused with any 4xx (RFC 9110, 15.5.5 and 15.5.6; 501 per 15.6.2).';

const pets = ['listPets', 'createPet', 'getPet'] as const;
const all = ['listPets', 'createPet', 'getPet', 'listStoreOrders'] as const;
/** Rate limits count every request with the key, those the spec does not list too. */
const counted = [...all, 'unlisted'] as const;

export const rules: readonly Rule[] = [
  { id: 'data.created-as-sent', checkId: 'data-integrity', operations: ['createPet'], title: 'A 201 holds the pet as sent, with a new id', quote: '201 | Pet (the created animal including its assigned `id`).', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes' , status: 'none' },
  { id: 'data.read-back', checkId: 'data-integrity', operations: ['listPets', 'getPet'], title: 'What is read back equals what the run knows of that id, field by field', quote: 'A Pet has all fields of NewPet plus `id`. | id | Unique identifier assigned by the service on creation.', reachedBy: 'a pet read twice, or read after the run created it' , status: 'none' },
  { id: 'data.one-id-one-pet', checkId: 'data-integrity', operations: ['getPet'], title: 'GET /pets/{petId} returns the pet with that id', quote: 'GET /pets/{petId} (operation `getPet`) Returns one animal. | petId | Identifier of the animal.', reachedBy: 'a getPet answered 200' , status: 'none' },
  { id: 'data.new-id', checkId: 'data-integrity', operations: ['createPet'], title: 'A create gets an id no other pet has', quote: 'id | Unique identifier assigned by the service on creation.', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes' , status: 'none' },
  { id: 'data.created-found', checkId: 'data-integrity', operations: ['getPet'], title: 'A pet the run created is found by its id', quote: '404 | Error. The requested resource could not be found.', reachedBy: 'a getPet of a pet the run created', needs: 'writes' , status: 'pinned', statusBasis: 'getPet: "| 200 | Pet. |"; 404 only when "the requested resource could not be found".' },
  { id: 'data.list-unique', checkId: 'data-integrity', operations: ['listPets'], title: 'A list names each id once', quote: 'Pets: A JSON array of Pet objects. | id | Unique identifier', reachedBy: 'a list answered 200' , status: 'none' },
  { id: 'data.status-filter', checkId: 'data-integrity', operations: ['listPets'], title: 'A filtered list holds only that status, however the query is spelled', quote: 'status | string (PetStatus) | Returns only animals with this status.', reachedBy: 'a list with a status filter answered 200' , status: 'none' },
  { id: 'data.limit-bound', checkId: 'data-integrity', operations: ['listPets'], title: '`limit` bounds every list (20 when absent), however the query is spelled', quote: 'limit | Minimum 1, maximum 100, default 20. Maximum number of animals returned.', reachedBy: 'a list answered 200' , status: 'none' },
  { id: 'data.id-exact', checkId: 'data-integrity', operations: ['getPet'], title: 'A petId that is not an integer is not served', quote: 'petId | integer (int64) | Identifier of the animal.', reachedBy: 'a getPet with a malformed id' , status: 'open', statusBasis: 'petId is an int64, and the getPet table names no status for a petId that is not one: any 4xx refuses it.' },
  { id: 'rate.limit-steady', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Limit is one value within a window', quote: 'X-RateLimit-Limit | The limit in force.', reachedBy: 'two answers to the key in one window' , status: 'none' },
  { id: 'rate.cost', checkId: 'rate-limit-accounting', operations: counted, title: 'Each request accepted with the key costs exactly one (a refused one, one or none)', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'two answers to the key in one window, the run the key\'s only user (not with --shared-key)' , status: 'none' },
  { id: 'rate.no-rise', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Remaining never rises within a window', quote: 'X-RateLimit-Remaining | Requests remaining in the current window. X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'two answers to the key in one window' , status: 'none' },
  { id: 'rate.429-only-when-spent', checkId: 'rate-limit-accounting', operations: counted, title: 'A 429 comes only once Remaining reached 0', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' , status: 'pinned', statusBasis: named429 },
  { id: 'rate.429-says-zero', checkId: 'rate-limit-accounting', operations: counted, title: 'A 429 says X-RateLimit-Remaining 0', quote: 'Requests over the limit receive 429 Too Many Requests. | X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' , status: 'none' },
  { id: 'rate.retry-after-covers-reset', checkId: 'rate-limit-accounting', operations: counted, title: 'Retry-After is never shorter than the time to X-RateLimit-Reset', quote: 'The client should back off and retry after the time given in the `Retry-After` header. | X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' , status: 'none' },
  { id: 'rate.concurrent-counted', checkId: 'rate-limit-accounting', operations: counted, title: 'Concurrent requests are each counted', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a burst of parallel requests with the key' , status: 'none' },
  { id: 'rate.over-limit-refused', checkId: 'rate-limit-accounting', operations: counted, title: 'Once the window is spent, every request (a POST too) gets 429 until the reset', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'requests after a 429 (--probe-rate-limit)', needs: 'probe' , status: 'pinned', statusBasis: named429 },
  { id: 'wire.utf8', checkId: 'wire-format', operations: ['*'], title: 'Bodies are UTF-8', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 8.1: JSON exchanged between systems is UTF-8.)', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.no-bom', checkId: 'wire-format', operations: ['*'], title: 'No byte-order mark', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 8.1: implementations MUST NOT add a byte order mark.)', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.charset', checkId: 'wire-format', operations: ['*'], title: 'A charset label tells the truth', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 11: application/json has no charset but UTF-8.)', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.one-json-value', checkId: 'wire-format', operations: ['*'], title: 'A body is one JSON value', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.header-once', checkId: 'wire-format', operations: ['*'], title: 'Each rate-limit header appears once', quote: 'Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.', reachedBy: 'any answer' , status: 'none' },
  { id: 'wire.readable', checkId: 'wire-format', operations: ['*'], title: 'An answer arrives whole and readable', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer' , status: 'none' },
  { id: 'deprecation.only-get-pet', checkId: 'deprecation', operations: ['listPets', 'createPet', 'listStoreOrders'], title: 'Only getPet is declared deprecated', quote: 'GET /pets/{petId} (operation `getPet`) - deprecated. | The last operation is deprecated.', reachedBy: 'any answer to another operation' , status: 'none' },
  { id: 'deprecation.sunset-date', checkId: 'deprecation', operations: ['getPet'], title: 'Where getPet states its removal, it is 5 December 2030', quote: 'This operation is deprecated and is to be removed on 5 December 2030.', reachedBy: 'a getPet answer carrying Sunset or Deprecation' , status: 'none' },
  { id: 'auth.keyless-refused', checkId: 'keyless-and-unlisted', operations: all, title: 'Without a valid key, every operation answers 401, whatever the spelling or connection', quote: 'When the key is missing or invalid, the response is 401 with an Error body.', reachedBy: 'a request without a valid key' , status: 'pinned', statusBasis: named401 },
  { id: 'auth.valid-key-accepted', checkId: 'keyless-and-unlisted', operations: pets, title: 'A key once accepted is accepted on every operation: 401 is for a missing or invalid key only', quote: 'When the key is missing or invalid, the response is 401 with an Error body. | Every operation requires HTTP bearer authentication.', reachedBy: 'a request with a key that an earlier request with it was served', status: 'pinned', statusBasis: 'Authentication 3 names 401 for a key "missing or invalid" only: a key a 2xx showed valid is neither, whatever its plan (a ban after a 429 aside: Authentication 4).' },
  { id: 'unlisted.not-served-without-key', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'No method or path is served (2xx) without the key, a CORS preflight aside', quote: 'All endpoints below require authentication. | Every operation requires HTTP bearer authentication.', reachedBy: 'an undocumented method or path sent without the key' , status: 'open', statusBasis: unlistedOpen },
  { id: 'unlisted.refusal-shape', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'A refusal of an undocumented request carries the rate-limit headers and an Error (HEAD: the headers)', quote: 'Every API response carries these headers. | Error responses carry an Error body (`code`, `message`, `status`).', reachedBy: 'an undocumented method or path refused' , status: 'none' },
  { id: 'unlisted.no-5xx', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'An undocumented method or path is served or refused, never answered 5xx', quote: 'Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code. (RFC 9110, 15.6: 5xx means the server failed.)', reachedBy: 'an undocumented method or path' , status: 'open', statusBasis: unlistedOpen },
  { id: 'equivalent.same-status', checkId: 'equivalent-requests', operations: pets, title: 'Equivalent forms of one request get the same status, and the same kind of Error', quote: 'The client sends its API key in the header `Authorization` as a bearer token. All request and response bodies are JSON (`application/json`). Error responses carry an Error body (`code`, `message`, `status`). (RFC 9110: header names, the auth scheme and media types are case-insensitive; RFC 8259: whitespace, member order and escapes leave a JSON value as it is.)', reachedBy: 'a request sent in several forms', status: 'pinned', statusBasis: 'Pinned to the status the same request got in its first form: the contract lets an answer depend on the method, the path, its parameters, the key, the body\'s JSON value, the clock and the quota, and on nothing else a client or an intermediary adds. One difference is allowed: 403 to a request with an Origin, a CORS policy (a warning).' },
  { id: 'equivalent.same-cost', checkId: 'equivalent-requests', operations: pets, title: 'Equivalent forms of one request cost the key\'s window the same, wherever they come from', quote: 'Rate limits by plan: Free 60 requests per minute. | X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a request sent in several forms, one after another with the key (not with --shared-key)', status: 'none' },
  { id: 'equivalent.same-data', checkId: 'equivalent-requests', operations: ['listPets', 'getPet'], title: 'Equivalent forms of one read give back the same pets', quote: 'GET /pets/{petId} Returns one animal. | Pets: A JSON array of Pet objects.', reachedBy: 'a read sent in several forms, answered 200', status: 'none' },
];

