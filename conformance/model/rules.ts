// The contract's rules the model judges, each with the sentence it rests on. A finding quotes its
// rule's sentence, and the reports' coverage table lists every rule, judged or not reached.

export type RuleId =
  | 'auth.wrong-key-401'
  | 'auth.key-first'
  | 'auth.key-accepted'
  | 'auth.scheme-case'
  | 'page.refused'
  | 'page.open'
  | 'filter.served'
  | 'filter.open'
  | 'filter.only-status'
  | 'filter.with-limit'
  | 'page.served'
  | 'page.default-size'
  | 'page.min-size'
  | 'page.max-holds-all'
  | 'get-pet.known'
  | 'get-pet.unknown-404'
  | 'get-pet.malformed-4xx'
  | 'create.valid-created'
  | 'create.read-back'
  | 'create.invalid-400'
  | 'create.open'
  | 'lifecycle.created'
  | 'lifecycle.client-id-ignored'
  | 'lifecycle.fetched'
  | 'lifecycle.listed'
  | 'lifecycle.location'
  | 'input.valid-served'
  | 'input.invalid-refused'
  | 'probe.429-reached'
  | 'probe.429-when-announced'
  | 'probe.over-limit-refused'
  | 'probe.retry-after-honoured'
  | 'status.no-5xx'
  | 'status.documented'
  | 'body.present'
  | 'body.json-labelled'
  | 'body.json'
  | 'body.schema'
  | 'body.int64'
  | 'error.status-equal'
  | 'headers.rate-limit-present'
  | 'headers.rate-limit-integers'
  | 'headers.remaining-within-limit'
  | 'headers.reset-plausible'
  | 'headers.retry-after'
  | 'headers.counts-down'
  | 'valid-creates.created'
  | 'data.created-as-sent'
  | 'data.read-back'
  | 'data.one-id-one-pet'
  | 'data.new-id'
  | 'data.refused-unstored'
  | 'data.created-found'
  | 'data.list-unique'
  | 'data.status-filter'
  | 'data.limit-bound'
  | 'data.id-exact'
  | 'rate.limit-steady'
  | 'rate.plan-limit'
  | 'rate.reset-kept'
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
  | 'wire.answered'
  | 'deprecation.only-get-pet'
  | 'deprecation.sunset-date'
  | 'deprecation.field-grammar'
  | 'deprecation.sunset-not-before'
  | 'ratelimit-draft.syntax'
  | 'ratelimit-draft.agrees'
  | 'auth.keyless-refused'
  | 'auth.valid-key-accepted'
  | 'unlisted.not-served-without-key'
  | 'unlisted.refusal-shape'
  | 'equivalent.same-status'
  | 'http.field-syntax'
  | 'http.content-type'
  | 'http.content-length'
  | 'http.framing'
  | 'http.content-encoding'
  | 'http.date'
  | 'http.date-current'
  | 'http.last-modified'
  | 'http.etag'
  | 'http.cache-control'
  | 'http.expires-age'
  | 'http.vary'
  | 'http.allow'
  | 'http.location'
  | 'http.www-authenticate'
  | 'http.link'
  | 'http.cors-origin'
  | 'http.status-code'
  | 'http.no-content'
  | 'http.405-allow'
  | 'http.conditional'
  | 'http.304-fields'
  | 'http.head-as-get'
  | 'http.strong-etag'
  | 'equivalent.same-cost'
  | 'equivalent.same-data'
  | 'framing.message-syntax'
  | 'framing.one-length'
  | 'framing.length-exact'
  | 'framing.chunked-valid'
  | 'framing.no-chunked-to-1.0'
  | 'framing.head-no-body'
  | 'framing.close-honoured'
  | 'framing.connection-reusable'
  | 'framing.pipelined-in-order'
  | 'framing.body-read-whole';

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
  /** What an option of the run must allow for it to be reached: a 429 (`--probe-rate-limit`), creates (not `--read-only`), or a key's plan (`--api-key-plan`). */
  needs?: 'probe' | 'writes' | 'plan';
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
  // The rules of the checks that send their own cases (or judge every answer's form), each judged
  // by the check's judge over its exchanges and the expectation each request carries.
  { id: 'auth.wrong-key-401', checkId: 'auth', operations: all, title: 'Each wrong presentation of the key gets 401 with an Error body', quote: 'The client sends its API key in the header `Authorization` as a bearer token: `Authorization: Bearer <API_KEY>`. When the key is missing or invalid, the response is 401 with an Error body.', reachedBy: 'the auth check', status: 'pinned', statusBasis: named401 },
  { id: 'auth.key-first', checkId: 'auth', operations: pets, title: 'A request without a valid key that is wrong otherwise too gets 401, not 400 or 404', quote: 'When the key is missing or invalid, the response is 401 with an Error body.', reachedBy: 'the auth check', status: 'pinned', statusBasis: named401 },
  { id: 'auth.key-accepted', checkId: 'auth', operations: all, title: 'The run\'s key is accepted on every operation', quote: 'Every operation requires HTTP bearer authentication. | 401 | Error. Missing or invalid API key.', reachedBy: 'the auth check', status: 'none' },
  { id: 'auth.scheme-case', checkId: 'auth', operations: all, title: 'The key under "bearer" in lower case is the same credential', quote: 'Every operation requires HTTP bearer authentication. (RFC 9110, 11.1: It uses a case-insensitive token to identify the authentication scheme.)', reachedBy: 'the auth check', status: 'none' },
  { id: 'page.refused', checkId: 'pagination', operations: ['listPets'], title: 'A limit outside 1..100, fractional, or not a number is refused with a 4xx Error', quote: 'limit | integer | no | Minimum 1, maximum 100, default 20.', reachedBy: 'the pagination check', status: 'open', statusBasis: 'listPets documents no 400: a value outside limit\'s schema is refused with any 4xx and an Error body.' },
  { id: 'page.open', checkId: 'pagination', operations: ['listPets'], title: 'A limit the contract does not say how to read (empty, repeated) is served (a warning) or refused with a 4xx Error', quote: 'limit | integer | no | Minimum 1, maximum 100, default 20.', reachedBy: 'the pagination check', status: 'open', statusBasis: 'The contract does not say how an empty or repeated limit is read: served, or refused with any 4xx.' },
  { id: 'filter.served', checkId: 'status-filter', operations: ['listPets'], title: 'Each PetStatus, with a limit, is served with 200 and a list', quote: 'GET /pets | 200 | Pets (array of Pet). | status | string (PetStatus) | no | Returns only animals with this status.', reachedBy: 'the status-filter check', status: 'pinned', statusBasis: 'listPets: "| 200 | Pets (array of Pet). |" for a valid query.' },
  { id: 'filter.open', checkId: 'status-filter', operations: ['listPets'], title: 'A status the contract does not say how to read (empty, repeated) is served (a warning) or refused with a 4xx Error', quote: 'status | string (PetStatus) | no | Returns only animals with this status.', reachedBy: 'the status-filter check', status: 'open', statusBasis: 'The contract does not say how an empty or repeated status is read: served, or refused with any 4xx.' },
  { id: 'filter.only-status', checkId: 'status-filter', operations: ['listPets'], title: 'GET /pets?status=X lists only pets whose status is X; an unknown status, or one in another case, is refused or matches none', quote: 'status | string (PetStatus) | Returns only animals with this status.', reachedBy: 'the status-filter check', status: 'open', statusBasis: 'listPets documents no 400: a status outside PetStatus is refused with any 4xx, or lists none.' },
  { id: 'filter.with-limit', checkId: 'status-filter', operations: ['listPets'], title: 'status and a limit smaller than the pets that match honour both (fewer than asked: a warning)', quote: 'status | Returns only animals with this status. | limit | Maximum number of animals returned.', reachedBy: 'a status two pets or more have', status: 'pinned', statusBasis: 'listPets: "| 200 | Pets (array of Pet). |" for a valid query.' },
  { id: 'page.served', checkId: 'pagination', operations: ['listPets'], title: 'A limit within 1..100 (or none) is served with 200 and a list', quote: 'GET /pets | 200 | Pets (array of Pet). | limit | Minimum 1, maximum 100, default 20.', reachedBy: 'the pagination check', status: 'pinned', statusBasis: 'listPets: "| 200 | Pets (array of Pet). |" for a valid query.' },
  { id: 'page.default-size', checkId: 'pagination', operations: ['listPets'], title: 'With no limit, exactly 20 pets when more exist', quote: 'limit | Minimum 1, maximum 100, default 20.', reachedBy: 'a limit=100 page and a page with no limit', status: 'none' },
  { id: 'page.min-size', checkId: 'pagination', operations: ['listPets'], title: 'limit=1 gives one pet when there is one', quote: 'limit | Minimum 1. Maximum number of animals returned.', reachedBy: 'a limit=100 page and a limit=1 page', status: 'none' },
  { id: 'page.max-holds-all', checkId: 'pagination', operations: ['listPets'], title: 'A limit=100 page that is not full holds at least the pets of every status-filtered page', quote: 'limit | maximum 100. Maximum number of animals returned. | status | Returns only animals with this status.', reachedBy: 'fewer than 100 pets', status: 'none' },
  { id: 'get-pet.known', checkId: 'get-pet', operations: ['getPet'], title: 'A listed id gives that pet with 200, its id exact, its fields as listed', quote: 'GET /pets/{petId} | 200 | Pet. | petId | integer (int64) | Identifier of the animal.', reachedBy: 'a deployment that lists a pet', status: 'pinned', statusBasis: 'getPet: "| 200 | Pet. |" for a pet that exists.' },
  { id: 'get-pet.unknown-404', checkId: 'get-pet', operations: ['getPet'], title: 'An int64 no listed pet has (-1 and int64\'s maximum among them) gets 404 with an Error body, or 200 with exactly that pet, which then exists', quote: '| 404 | Error. The requested resource could not be found. |', reachedBy: 'the get-pet check', status: 'pinned', statusBasis: 'getPet: "| 404 | Error. The requested resource could not be found. |"' },
  { id: 'get-pet.malformed-4xx', checkId: 'get-pet', operations: ['getPet'], title: 'A petId that is no int64 (a word, a fraction, one past int64) is refused with a 4xx Error', quote: 'petId | integer (int64) | yes | Identifier of the animal.', reachedBy: 'the get-pet check', status: 'open', statusBasis: 'petId is an int64, and the getPet table names no status for a petId that is not one: any 4xx refuses it.' },
  { id: 'create.valid-created', checkId: 'create-pet', operations: ['createPet'], title: 'A valid NewPet is created with 201 and an int64 id', quote: 'POST /pets | 201 | Pet (the created animal including its assigned `id`).', reachedBy: 'the create-pet check (not with --read-only)', needs: 'writes', status: 'pinned', statusBasis: 'createPet: "| 201 | Pet (the created animal including its assigned `id`). |"' },
  { id: 'create.read-back', checkId: 'create-pet', operations: ['getPet'], title: 'A pet just created is read back by its id with 200, as POST answered it', quote: 'GET /pets/{petId} | 200 | Pet. | id | Unique identifier assigned by the service on creation.', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes', status: 'pinned', statusBasis: 'getPet: "| 200 | Pet. |" for a pet that exists.' },
  { id: 'create.invalid-400', checkId: 'create-pet', operations: ['createPet'], title: 'A body that is no valid NewPet is refused with 400 (a form body: any 4xx) and an Error body', quote: '| 400 | Error. The body is missing required fields or has invalid values. |', reachedBy: 'the create-pet check (not with --read-only)', needs: 'writes', status: 'pinned', statusBasis: 'createPet: "| 400 | Error. The body is missing required fields or has invalid values. |"; a body not labelled JSON names no status, so any 4xx.' },
  { id: 'create.open', checkId: 'create-pet', operations: ['createPet'], title: 'A body the contract does not say how to read is created (a warning) or refused with a 4xx Error', quote: 'The request body is required, is `application/json`, and has the shape NewPet.', reachedBy: 'the create-pet check (not with --read-only)', needs: 'writes', status: 'open', statusBasis: 'The contract does not say how such a body is read: created, or refused with any 4xx.' },
  { id: 'lifecycle.created', checkId: 'pet-lifecycle', operations: ['createPet'], title: 'A valid NewPet is created with 201 and an id', quote: 'POST /pets | 201 | Pet (the created animal including its assigned `id`).', reachedBy: 'the pet-lifecycle check (not with --read-only)', needs: 'writes', status: 'pinned', statusBasis: 'createPet: "| 201 | Pet (the created animal including its assigned `id`). |"' },
  { id: 'lifecycle.client-id-ignored', checkId: 'pet-lifecycle', operations: ['createPet'], title: 'An id the client sends is ignored or refused with a 4xx Error, never taken', quote: 'id | Unique identifier assigned by the service on creation.', reachedBy: 'a deployment that lists a pet (not with --read-only)', needs: 'writes', status: 'open', statusBasis: 'NewPet has no id: a body carrying one is created (the id ignored) or refused with any 4xx.' },
  { id: 'lifecycle.fetched', checkId: 'pet-lifecycle', operations: ['getPet'], title: 'The pet just created is fetched by the id POST gave, as sent', quote: 'GET /pets/{petId} | 200 | Pet. | A Pet has all fields of NewPet plus `id`.', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes', status: 'pinned', statusBasis: 'getPet: "| 200 | Pet. |" for a pet that exists.' },
  { id: 'lifecycle.listed', checkId: 'pet-lifecycle', operations: ['listPets'], title: 'The pets just created are in the list filtered by their status', quote: 'GET /pets Returns a paginated list of animals. | status | Returns only animals with this status.', reachedBy: 'a create answered 201, with fewer than 100 pets of its status (not with --read-only)', needs: 'writes', status: 'pinned', statusBasis: 'listPets: "| 200 | Pets (array of Pet). |" for a valid query.' },
  { id: 'lifecycle.location', checkId: 'pet-lifecycle', operations: ['createPet'], title: 'A 201\'s Location, when it names another URL of the deployment than /pets/{id} under the base, leads to the pet created', quote: 'RFC 9110, 15.3.2: The primary resource created by the request is identified by either a Location header field in the response or, if no Location header field is received, by the target URI. 10.2.2: Location = URI-reference, resolved against the target URI.', reachedBy: 'a create answered 201 with a Location of the deployment\'s origin other than <base>/pets/<id> (not with --read-only)', needs: 'writes', status: 'none' },
  { id: 'input.valid-served', checkId: 'generated-traffic', operations: ['listPets', 'createPet'], title: 'A generated valid request is served: a NewPet of up to 40 characters with a known categoryId, a list with a valid limit and status', quote: 'POST /pets | 201 | Pet. | GET /pets | 200 | Pets (array of Pet).', reachedBy: 'the generated traffic', status: 'open', statusBasis: 'A valid request is served (any status below 400); 401 and 403 say the key, which auth.valid-key-accepted judges.' },
  { id: 'input.invalid-refused', checkId: 'generated-traffic', operations: ['listPets', 'createPet', 'getPet'], title: 'A generated value the contract forbids is refused: a JSON NewPet with 400, anything else with a 4xx', quote: '| 400 | Error. The body is missing required fields or has invalid values. |', reachedBy: 'the generated traffic', status: 'pinned', statusBasis: 'createPet: "| 400 | Error. The body is missing required fields or has invalid values. |" for a JSON body; elsewhere no status is named, so any 4xx but 401.' },
  { id: 'probe.429-reached', checkId: 'rate-limit-probe', operations: ['listPets'], title: 'Requests over the limit get 429, and no later than X-RateLimit-Remaining promised', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'the rate-limit probe (--probe-rate-limit)', needs: 'probe', status: 'pinned', statusBasis: named429 },
  { id: 'probe.429-when-announced', checkId: 'rate-limit-probe', operations: ['listPets'], title: 'No 429 while the previous answer said requests were left', quote: 'X-RateLimit-Remaining | Requests remaining in the current window. | Requests over the limit receive 429 Too Many Requests.', reachedBy: 'the rate-limit probe (--probe-rate-limit)', needs: 'probe', status: 'none' },
  { id: 'probe.over-limit-refused', checkId: 'rate-limit-probe', operations: ['listPets'], title: 'Once Remaining said 0, requests before the reset are not served', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'the rate-limit probe (--probe-rate-limit)', needs: 'probe', status: 'pinned', statusBasis: named429 },
  { id: 'probe.retry-after-honoured', checkId: 'rate-limit-probe', operations: ['listPets'], title: 'A request sent once the last 429\'s Retry-After has passed is not refused again, but for a ban', quote: '| 429 | Rate limit exceeded. The client should back off and retry after the time given in the `Retry-After` header. | Repeated requests after a 429 response may lead to a temporary ban of the API key.', reachedBy: 'the rate-limit probe (--probe-rate-limit), when --max-wait allows the wait', needs: 'probe', status: 'pinned', statusBasis: 'Errors: "429 | Rate limit exceeded. The client should back off and retry after the time given in the `Retry-After` header."' },
  { id: 'status.no-5xx', checkId: 'status-codes', operations: counted, title: 'No request, whatever it sends, gets a 5xx (a method or path the spec does not list: 501 aside)', quote: 'Error responses carry an Error body. (RFC 9110, 15.6: the 5xx (Server Error) class indicates that the server is aware that it has erred; bad input gets a 4xx. 15.6.2: 501 is how a server says it does not support the method.)', reachedBy: 'any answer', status: 'open', statusBasis: 'Bad input names its 4xx where the contract does (400, 401, 404); never a 5xx. ' + unlistedOpen },
  { id: 'status.documented', checkId: 'status-codes', operations: all, title: 'Every answer to a valid request has a status the contract documents for its operation', quote: 'Responses: | Status | Body | (each operation documents its statuses)', reachedBy: 'any answer to a valid request', status: 'pinned', statusBasis: 'Each operation\'s table of responses: 200/201, 400, 401, 404 and 429 where listed.' },
  { id: 'body.present', checkId: 'content-type', operations: all, title: 'An answer the contract gives a body has one', quote: 'All request and response bodies are JSON (`application/json`). Error responses carry an Error body.', reachedBy: 'any answer', status: 'none' },
  { id: 'body.json-labelled', checkId: 'content-type', operations: all, title: 'A body is labelled application/json', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer with a body', status: 'none' },
  { id: 'body.json', checkId: 'content-type', operations: all, title: 'A body is valid JSON', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer with a body', status: 'none' },
  { id: 'body.schema', checkId: 'response-schema', operations: all, title: 'A body matches the schema the spec gives its status (extra fields allowed)', quote: '| 200 | Pets (array of Pet). | 201 | Pet | Error responses carry an Error body (`code`, `message`, `status`).', reachedBy: 'any answer with a JSON body', status: 'none' },
  { id: 'body.int64', checkId: 'response-schema', operations: all, title: 'The contract\'s integer fields (id, categoryId, an Error\'s status) are within int64, read losslessly', quote: 'id | integer | int64 | categoryId | integer | int64', reachedBy: 'any answer with a JSON body', status: 'none' },
  { id: 'error.status-equal', checkId: 'response-schema', operations: all, title: 'An Error\'s status equals the HTTP status', quote: 'Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code.', reachedBy: 'an answer 400 or above with an Error body', status: 'none' },
  { id: 'headers.rate-limit-present', checkId: 'rate-limit-headers', operations: all, title: 'Every answer carries X-RateLimit-Limit, -Remaining and -Reset, and a 429 Retry-After', quote: 'Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset. | 429 | Rate limit exceeded. The client should back off and retry after the time given in the `Retry-After` header.', reachedBy: 'any answer', status: 'none' },
  { id: 'headers.rate-limit-integers', checkId: 'rate-limit-headers', operations: all, title: 'The rate-limit headers are non-negative integers', quote: 'X-RateLimit-Limit | The limit in force. X-RateLimit-Remaining | Requests remaining in the current window. X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'any answer', status: 'none' },
  { id: 'headers.remaining-within-limit', checkId: 'rate-limit-headers', operations: all, title: 'X-RateLimit-Remaining is never above X-RateLimit-Limit', quote: 'X-RateLimit-Limit | The limit in force. X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'any answer', status: 'none' },
  { id: 'headers.reset-plausible', checkId: 'rate-limit-headers', operations: all, title: 'X-RateLimit-Reset is a Unix time in seconds, not past, at most two days ahead', quote: 'X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'any answer', status: 'none' },
  { id: 'headers.retry-after', checkId: 'rate-limit-headers', operations: ['*'], title: 'Retry-After is delay-seconds or an IMF-fixdate', quote: 'The client should back off and retry after the time given in the `Retry-After` header. (RFC 9110, 10.2.3: Retry-After = HTTP-date / delay-seconds. 5.6.7: the sender MUST generate those timestamps in the IMF-fixdate format.)', reachedBy: 'an answer with Retry-After', status: 'none' },
  { id: 'headers.counts-down', checkId: 'rate-limit-headers', operations: all, title: 'Remaining counts down as requests are served (eight in a row that leave it where it was, under one Reset, fail)', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'nine answers with the key in a row', status: 'none' },
  { id: 'valid-creates.created', checkId: 'valid-creates', operations: ['createPet'], title: 'A create with nothing a deployment may refuse is not refused with a 4xx', quote: '400 | Error. The body is missing required fields or has invalid values.', reachedBy: 'a valid create the proxy saw', status: 'open', statusBasis: 'A valid NewPet is created: any 2xx; 401, 403 and 429 say the key or the quota, not the body.' },
  { id: 'data.created-as-sent', checkId: 'data-integrity', operations: ['createPet'], title: 'A 201 holds the pet as sent, with a new id', quote: '201 | Pet (the created animal including its assigned `id`).', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes' , status: 'none' },
  { id: 'data.read-back', checkId: 'data-integrity', operations: ['listPets', 'getPet'], title: 'What is read back equals what the run knows of that id, field by field', quote: 'A Pet has all fields of NewPet plus `id`. | id | Unique identifier assigned by the service on creation.', reachedBy: 'a pet read twice, or read after the run created it' , status: 'none' },
  { id: 'data.one-id-one-pet', checkId: 'data-integrity', operations: ['getPet'], title: 'GET /pets/{petId} returns the pet with that id', quote: 'GET /pets/{petId} (operation `getPet`) Returns one animal. | petId | Identifier of the animal.', reachedBy: 'a getPet answered 200' , status: 'none' },
  { id: 'data.refused-unstored', checkId: 'data-integrity', operations: ['listPets', 'getPet'], title: 'A create refused with a 4xx adds no pet', quote: '400 | Error. The body is missing required fields or has invalid values.', reachedBy: 'a pet listed or read under a name only a refused create sent (not with --read-only)', needs: 'writes', status: 'none' },
  { id: 'data.new-id', checkId: 'data-integrity', operations: ['createPet'], title: 'A create gets an id no other pet has', quote: 'id | Unique identifier assigned by the service on creation.', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes' , status: 'none' },
  { id: 'data.created-found', checkId: 'data-integrity', operations: ['getPet'], title: 'A pet the run created is found by its id', quote: '404 | Error. The requested resource could not be found.', reachedBy: 'a getPet of a pet the run created', needs: 'writes' , status: 'pinned', statusBasis: 'getPet: "| 200 | Pet. |"; 404 only when "the requested resource could not be found".' },
  { id: 'data.list-unique', checkId: 'data-integrity', operations: ['listPets'], title: 'A list names each id once', quote: 'Pets: A JSON array of Pet objects. | id | Unique identifier', reachedBy: 'a list answered 200' , status: 'none' },
  { id: 'data.status-filter', checkId: 'data-integrity', operations: ['listPets'], title: 'A filtered list holds only that status, however the query is spelled', quote: 'status | string (PetStatus) | Returns only animals with this status.', reachedBy: 'a list with a status filter answered 200' , status: 'none' },
  { id: 'data.limit-bound', checkId: 'data-integrity', operations: ['listPets'], title: '`limit` bounds every list (20 when absent), however the query is spelled', quote: 'limit | Minimum 1, maximum 100, default 20. Maximum number of animals returned.', reachedBy: 'a list answered 200' , status: 'none' },
  { id: 'data.id-exact', checkId: 'data-integrity', operations: ['getPet'], title: 'A petId that is not an integer is not served', quote: 'petId | integer (int64) | Identifier of the animal.', reachedBy: 'a getPet with a malformed id' , status: 'open', statusBasis: 'petId is an int64, and the getPet table names no status for a petId that is not one: any 4xx refuses it.' },
  { id: 'rate.limit-steady', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Limit is one value within a window', quote: 'X-RateLimit-Limit | The limit in force.', reachedBy: 'two answers to the key in one window' , status: 'none' },
  { id: 'rate.reset-kept', checkId: 'rate-limit-accounting', operations: counted, title: 'The whole quota comes back no sooner than a minute before the X-RateLimit-Reset announced before it', quote: 'X-RateLimit-Reset | Unix timestamp at which the limit resets. | X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'an answer in a new window, under the same Limit, more than a minute before the Reset the answer before it announced', status: 'none' },
  { id: 'rate.plan-limit', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Limit is the key\'s plan\'s requests a minute or a day, and the minute\'s resets within a minute, for a key whose plan the run is told', quote: 'Rate limits by plan: | Free | 60 | 1,000 | Pro | 300 | 10,000 | Business | 1,000 | 100,000 | Enterprise | custom | custom | X-RateLimit-Limit | The limit in force.', reachedBy: 'an answer to a key whose plan the run is told (--api-key-plan, --api-key-2-plan), other than Enterprise', needs: 'plan', status: 'none' },
  { id: 'rate.cost', checkId: 'rate-limit-accounting', operations: counted, title: 'Each request accepted with the key costs exactly one (a refused one, one or none)', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'two answers to the key in one window, the run the key\'s only user (not with --shared-key)' , status: 'none' },
  { id: 'rate.no-rise', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Remaining never rises within a window', quote: 'X-RateLimit-Remaining | Requests remaining in the current window. X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'two answers to the key in one window' , status: 'none' },
  { id: 'rate.429-only-when-spent', checkId: 'rate-limit-accounting', operations: counted, title: 'A 429 comes only once Remaining reached 0', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' , status: 'pinned', statusBasis: named429 },
  { id: 'rate.429-says-zero', checkId: 'rate-limit-accounting', operations: counted, title: 'A 429 says X-RateLimit-Remaining 0', quote: 'Requests over the limit receive 429 Too Many Requests. | X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' , status: 'none' },
  { id: 'rate.retry-after-covers-reset', checkId: 'rate-limit-accounting', operations: counted, title: 'Retry-After shorter than the time to X-RateLimit-Reset is a warning: a client that retries when told is refused again, unless a request frees before the reset', quote: 'The client should back off and retry after the time given in the `Retry-After` header. | X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' , status: 'none' },
  { id: 'rate.concurrent-counted', checkId: 'rate-limit-accounting', operations: counted, title: 'Concurrent requests are each counted', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a burst of parallel requests with the key' , status: 'none' },
  { id: 'rate.over-limit-refused', checkId: 'rate-limit-accounting', operations: counted, title: 'Once the window is spent, every request (a POST too) gets 429 until the reset, or until the 429\'s Retry-After has passed if sooner', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'requests after a 429 (--probe-rate-limit)', needs: 'probe' , status: 'pinned', statusBasis: named429 },
  { id: 'wire.utf8', checkId: 'wire-format', operations: ['*'], title: 'Bodies are UTF-8', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 8.1: JSON exchanged between systems is UTF-8.)', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.no-bom', checkId: 'wire-format', operations: ['*'], title: 'No byte-order mark', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 8.1: implementations MUST NOT add a byte order mark.)', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.charset', checkId: 'wire-format', operations: ['*'], title: 'A charset label tells the truth', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 11: application/json has no charset but UTF-8.)', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.one-json-value', checkId: 'wire-format', operations: ['*'], title: 'A body is one JSON value', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer with a body' , status: 'none' },
  { id: 'wire.header-once', checkId: 'wire-format', operations: ['*'], title: 'Each rate-limit header appears once', quote: 'Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.', reachedBy: 'any answer' , status: 'none' },
  { id: 'wire.readable', checkId: 'wire-format', operations: ['*'], title: 'An answer arrives whole and readable', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer' , status: 'none' },
  { id: 'deprecation.only-get-pet', checkId: 'deprecation', operations: ['listPets', 'createPet'], title: 'Of the operations the contract lists, only getPet is declared deprecated (GET /store/orders, not shown, is not judged)', quote: 'GET /pets/{petId} (operation `getPet`) - deprecated. | The last operation is deprecated.', reachedBy: 'any answer to listPets or createPet' , status: 'none' },
  { id: 'deprecation.sunset-date', checkId: 'deprecation', operations: ['getPet'], title: 'Where getPet states its removal, it is 5 December 2030', quote: 'This operation is deprecated and is to be removed on 5 December 2030.', reachedBy: 'a getPet answer carrying Sunset or Deprecation' , status: 'none' },
  { id: 'auth.keyless-refused', checkId: 'keyless-and-unlisted', operations: all, title: 'Without a valid key, every operation answers 401, whatever the spelling or connection', quote: 'When the key is missing or invalid, the response is 401 with an Error body.', reachedBy: 'a request without a valid key' , status: 'pinned', statusBasis: named401 },
  { id: 'auth.valid-key-accepted', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'A key once accepted is accepted on every operation: 401 is for a missing or invalid key only', quote: 'When the key is missing or invalid, the response is 401 with an Error body. | Every operation requires HTTP bearer authentication.', reachedBy: 'a request with a key that another answer to an operation served, before or after it', status: 'pinned', statusBasis: 'Authentication 3 names 401 for a key "missing or invalid" only: a key a 2xx showed valid is neither, whatever its plan (a ban after a 429 aside: Authentication 4).' },
  { id: 'unlisted.not-served-without-key', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'No method or path is served (2xx) without the key, a CORS preflight aside', quote: 'All endpoints below require authentication. | Every operation requires HTTP bearer authentication.', reachedBy: 'an undocumented method or path sent without the key' , status: 'open', statusBasis: unlistedOpen },
  { id: 'unlisted.refusal-shape', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'A refusal of an undocumented request carries the rate-limit headers and an Error (HEAD: the headers)', quote: 'Every API response carries these headers. | Error responses carry an Error body (`code`, `message`, `status`).', reachedBy: 'an undocumented method or path refused' , status: 'none' },
  { id: 'equivalent.same-status', checkId: 'equivalent-requests', operations: pets, title: 'Equivalent forms of one request get the same status, and the same kind of Error', quote: 'The client sends its API key in the header `Authorization` as a bearer token. All request and response bodies are JSON (`application/json`). Error responses carry an Error body (`code`, `message`, `status`). (RFC 9110: header names, the auth scheme and media types are case-insensitive; RFC 8259: whitespace, member order and escapes leave a JSON value as it is.)', reachedBy: 'a request sent in several forms', status: 'pinned', statusBasis: 'Pinned to the status the same request got in its first form: the contract lets an answer depend on the method, the path, its parameters, the key, the body\'s JSON value, the clock and the quota, and on nothing else a client or an intermediary adds. One difference is allowed: 403 to a request with an Origin, a CORS policy (a warning).' },
  { id: 'equivalent.same-cost', checkId: 'equivalent-requests', operations: pets, title: 'Equivalent forms of one request cost the key\'s window the same, wherever they come from', quote: 'Rate limits by plan: Free 60 requests per minute. | X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a request sent in several forms, one after another with the key (not with --shared-key)', status: 'none' },
  { id: 'equivalent.same-data', checkId: 'equivalent-requests', operations: ['listPets', 'getPet'], title: 'Equivalent forms of one read give back the same pets', quote: 'GET /pets/{petId} Returns one animal. | Pets: A JSON array of Pet objects.', reachedBy: 'a read sent in several forms, answered 200', status: 'none' },
  { id: 'wire.answered', checkId: 'wire-format', operations: pets, title: 'A documented operation answers while the deployment answers others', quote: 'GET /pets (operation `listPets`) Returns a paginated list of animals. | POST /pets (operation `createPet`) Adds an animal. | GET /pets/{petId} (operation `getPet`) Returns one animal.', reachedBy: 'an answer to the operation', status: 'none' },
  { id: 'deprecation.field-grammar', checkId: 'deprecation', operations: ['*'], title: 'Deprecation is a structured-field date (@<seconds>), Sunset an IMF-fixdate', quote: 'RFC 9745, 2.1: The Deprecation response header field is an Item Structured Header Field; its value MUST be a Date as per Section 3.3.7 of [STRUCTURED-FIELDS]. RFC 8594, 3: Sunset = HTTP-date.', reachedBy: 'an answer carrying Deprecation or Sunset', status: 'none' },
  { id: 'deprecation.sunset-not-before', checkId: 'deprecation', operations: ['*'], title: 'Sunset is not earlier than Deprecation', quote: 'RFC 9745, 4: The timestamp given in the Sunset HTTP header field MUST NOT be earlier than the one given in the Deprecation header field.', reachedBy: 'an answer carrying both Deprecation and Sunset, each a date', status: 'none' },
  { id: 'ratelimit-draft.syntax', checkId: 'rate-limit-headers', operations: ['*'], title: 'Where sent, RateLimit-Policy and RateLimit are the IETF draft\'s Structured Field Lists', quote: 'draft-ietf-httpapi-ratelimit-headers-11, 3: The "RateLimit-Policy" response header field is a non-empty List[SF] of Quota Policy Items. The Item[SF] value MUST be a String[SF]. 3.1: q: The REQUIRED "q" parameter indicates the quota allocated by this policy measured in quota units. 4: The field is expressed as a List[SF] of Service Limit Items. 4.1: r: This REQUIRED parameter value conveys the available quota under the identified policy. (The contract names only X-RateLimit-*: a deployment without the draft\'s fields is judged on nothing here.)', reachedBy: 'an answer carrying RateLimit-Policy or RateLimit', status: 'none' },
  { id: 'ratelimit-draft.agrees', checkId: 'rate-limit-headers', operations: ['*'], title: 'The draft\'s RateLimit says what X-RateLimit-* say of the same window (a remaining count that differs fails; a reset that differs, or no policy of the limit\'s quota, warns)', quote: 'X-RateLimit-Limit | The limit in force. X-RateLimit-Remaining | Requests remaining in the current window. X-RateLimit-Reset | Unix timestamp at which the limit resets. draft-ietf-httpapi-ratelimit-headers-11, 4.1.1: The "r" parameter indicates the available quota under the identified policy. 4.1.2: The "t" parameter indicates effective window under the identified policy.', reachedBy: 'an answer carrying X-RateLimit-*, RateLimit-Policy and RateLimit', status: 'none' },
  // HTTP itself, on every exchange: each field a deployment sends parsed with its grammar and held to its meaning.
  { id: 'http.field-syntax', checkId: 'http-semantics', operations: ['*'], title: 'Every field line is a token name and a value without CR, LF, NUL or other controls', quote: 'RFC 9110, 5.1: field-name = token. 5.5: field-value = *field-content ... Field values containing CR, LF, or NUL characters are invalid and dangerous.', reachedBy: 'any answer', status: 'none' },
  { id: 'http.content-type', checkId: 'http-semantics', operations: ['*'], title: 'Content-Type is one media type: type "/" subtype and parameters', quote: 'RFC 9110, 8.3.1: media-type = type "/" subtype parameters. 5.3: A sender MUST NOT generate multiple field lines with the same name in a message ... unless that field\'s definition allows multiple field line values to be recombined as a comma-separated list.', reachedBy: 'an answer with Content-Type', status: 'none' },
  { id: 'http.content-length', checkId: 'http-semantics', operations: ['*'], title: 'Content-Length is one decimal count of the octets sent, and never on a 204', quote: 'RFC 9110, 8.6: Content-Length = 1*DIGIT ... a Content-Length header field can provide the anticipated size, as a decimal number of octets, for potential content. ... A server MUST NOT send a Content-Length header field in any response with a status code of 1xx (Informational) or 204 (No Content).', reachedBy: 'an answer with Content-Length', status: 'none' },
  { id: 'http.framing', checkId: 'http-semantics', operations: ['*'], title: 'Transfer-Encoding never comes with Content-Length, nor on a 204', quote: 'RFC 9112, 6.2: A sender MUST NOT send a Content-Length header field in any message that contains a Transfer-Encoding header field. 6.1: A server MUST NOT send a Transfer-Encoding header field in any response with a status code of 1xx (Informational) or 204 (No Content).', reachedBy: 'an answer with Transfer-Encoding', status: 'none' },
  { id: 'http.content-encoding', checkId: 'http-semantics', operations: ['*'], title: 'Content-Encoding names only codings the request accepted', quote: 'RFC 9110, 8.4: Content-Encoding = #content-coding. 12.5.3: If the representation\'s content coding is one of the content codings listed in the Accept-Encoding field value, then it is acceptable unless it is accompanied by a qvalue of 0. ... An Accept-Encoding header field with a field value that is empty implies that the user agent does not want any content coding in response.', reachedBy: 'a content-coded answer', status: 'none' },
  { id: 'http.date', checkId: 'http-semantics', operations: ['*'], title: 'Date is one IMF-fixdate, on every answer but 1xx and 5xx (absent: a warning)', quote: 'RFC 9110, 6.6.1: An origin server MAY send a Date header field if the response is in the 1xx (Informational) or 5xx (Server Error) class of status codes. An origin server MUST send a Date header field in all other cases. 5.6.7: the sender MUST generate those timestamps in the IMF-fixdate format.', reachedBy: 'any answer but 1xx and 5xx', status: 'none' },
  { id: 'http.date-current', checkId: 'http-semantics', operations: ['*'], title: 'Date is when the answer was made, within five minutes of the run\'s clock (Age counted)', quote: 'RFC 9110, 6.6.1: The "Date" header field represents the date and time at which the message was originated. 5.6.7: a clock is able to provide a reasonable approximation of the current instant in Coordinated Universal Time. RFC 9111, 5.1: Age conveys the sender\'s estimate of the time since the response was generated.', reachedBy: 'an answer with a Date', status: 'none' },
  { id: 'http.last-modified', checkId: 'http-semantics', operations: ['*'], title: 'Last-Modified is one IMF-fixdate, not later than Date', quote: 'RFC 9110, 8.8.2: Last-Modified = HTTP-date. 8.8.2.1: An origin server with a clock ... MUST NOT generate a Last-Modified date that is later than the server\'s time of message origination (Date).', reachedBy: 'an answer with Last-Modified', status: 'none' },
  { id: 'http.etag', checkId: 'http-semantics', operations: ['*'], title: 'ETag is one entity-tag', quote: 'RFC 9110, 8.8.3: ETag = entity-tag; entity-tag = [ weak ] opaque-tag; weak = %s"W/"; opaque-tag = DQUOTE *etagc DQUOTE.', reachedBy: 'an answer with ETag', status: 'none' },
  { id: 'http.cache-control', checkId: 'http-semantics', operations: ['*'], title: 'Cache-Control is well-formed, and a keyed answer is not handed to shared caches', quote: 'RFC 9111, 5.2: Cache-Control = #cache-directive; cache-directive = token [ "=" ( token / quoted-string ) ]. 3.5: A shared cache MUST NOT use a cached response to a request with an Authorization header field to satisfy any subsequent request unless the response contains a Cache-Control field with a response directive that allows it to be stored by a shared cache (must-revalidate, public, s-maxage). The contract: All endpoints below require authentication.', reachedBy: 'an answer with Cache-Control', status: 'none' },
  { id: 'http.expires-age', checkId: 'http-semantics', operations: ['*'], title: 'Expires is an HTTP-date (an invalid one: a warning), Age delta-seconds', quote: 'RFC 9111, 5.3: Expires = HTTP-date ... A cache recipient MUST interpret invalid date formats, especially the value "0", as representing a time in the past. 5.1: Age = delta-seconds.', reachedBy: 'an answer with Expires or Age', status: 'none' },
  { id: 'http.vary', checkId: 'http-semantics', operations: ['*'], title: 'Vary is "*" or field names', quote: 'RFC 9110, 12.5.5: Vary = #( "*" / field-name ).', reachedBy: 'an answer with Vary', status: 'none' },
  { id: 'http.allow', checkId: 'http-semantics', operations: ['*'], title: 'Allow is a list of methods', quote: 'RFC 9110, 10.2.1: Allow = #method.', reachedBy: 'an answer with Allow', status: 'none' },
  { id: 'http.location', checkId: 'http-semantics', operations: ['*'], title: 'Location and Content-Location are URI references; a 201\'s Location names the pet created', quote: 'RFC 9110, 10.2.2: Location = URI-reference. 15.3.2: The primary resource created by the request is identified by either a Location header field in the response or, if no Location header field is received, by the target URI. 8.7: Content-Location = absolute-URI / partial-URI.', reachedBy: 'an answer with Location or Content-Location', status: 'none' },
  { id: 'http.www-authenticate', checkId: 'http-semantics', operations: ['*'], title: 'WWW-Authenticate is #challenge, and a 401\'s names Bearer (absent: a warning)', quote: 'RFC 9110, 15.5.2: The server generating a 401 response MUST send a WWW-Authenticate header field containing at least one challenge applicable to the target resource. 11.6.1: WWW-Authenticate = #challenge. RFC 6750, 3: All challenges defined by this specification MUST use the auth-scheme value "Bearer". The contract: Every operation requires HTTP bearer authentication.', reachedBy: 'a 401, or an answer with WWW-Authenticate', status: 'none' },
  { id: 'http.link', checkId: 'http-semantics', operations: ['*'], title: 'Link is #link-value, each with one rel', quote: 'RFC 8288, 3: Link = #link-value; link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param ). 3.3: The rel parameter MUST be present but MUST NOT appear more than once in a given link-value.', reachedBy: 'an answer with Link', status: 'none' },
  { id: 'http.cors-origin', checkId: 'http-semantics', operations: ['*'], title: 'Access-Control-Allow-Origin is one origin, null or *, never * with credentials (warnings: the contract shows no CORS)', quote: 'Fetch Standard, 3.2.3: Access-Control-Allow-Origin = origin-or-null / wildcard; Access-Control-Allow-Credentials = %s"true". 4.10 (CORS check): if the request\'s credentials mode is "include" and Access-Control-Allow-Origin is `*`, return failure.', reachedBy: 'an answer with Access-Control-Allow-Origin', status: 'none' },
  { id: 'http.status-code', checkId: 'http-semantics', operations: ['*'], title: 'The final status is within 100-599 and not 1xx', quote: 'RFC 9110, 15: All valid status codes are within the range of 100 to 599, inclusive. 15.2: The 1xx (Informational) class of status code indicates an interim response for communicating connection status or request progress prior to completing the requested action and sending a final response.', reachedBy: 'any answer', status: 'none' },
  { id: 'http.no-content', checkId: 'http-semantics', operations: ['*'], title: '204, 304 and every answer to HEAD carry no content', quote: 'RFC 9110, 9.3.2: The HEAD method is identical to GET except that the server MUST NOT send content in the response. 15.3.5 and 15.4.5: A 204 [304] response is terminated by the end of the header section; it cannot contain content or trailers.', reachedBy: 'a 204, a 304 or an answer to HEAD', status: 'none' },
  { id: 'http.405-allow', checkId: 'http-semantics', operations: ['*'], title: 'A 405 carries Allow, without the method refused and with those the path served', quote: 'RFC 9110, 15.5.6: The 405 (Method Not Allowed) status code indicates that the method received in the request-line is known by the origin server but not supported by the target resource. The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods.', reachedBy: 'a 405', status: 'none' },
  { id: 'http.conditional', checkId: 'http-semantics', operations: ['*'], title: 'A 304 answers only a conditional GET or HEAD whose condition was false', quote: 'RFC 9110, 15.4.5: The 304 (Not Modified) status code indicates that a conditional GET or HEAD request has been received and would have resulted in a 200 (OK) response if it were not for the fact that the condition evaluated to false. 13.1.2: If the field value is a list of entity tags, the condition is false if one of the listed tags matches the entity tag of the selected representation. 13.1.3: If the selected representation\'s last modification date is earlier or equal to the date provided in the field value, the condition is false.', reachedBy: 'a conditional GET (If-None-Match, If-Modified-Since), or a 304', status: 'none' },
  { id: 'http.304-fields', checkId: 'http-semantics', operations: ['*'], title: 'A 304 carries the fields its 200 would, the rate-limit headers among them', quote: 'RFC 9110, 15.4.5: The server generating a 304 response MUST generate any of the following header fields that would have been sent in a 200 (OK) response to the same request: Content-Location, Date, ETag, and Vary; Cache-Control and Expires. The contract: Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.', reachedBy: 'a 304', status: 'none' },
  { id: 'http.head-as-get', checkId: 'http-semantics', operations: ['*'], title: 'A HEAD served answers as GET would, with its header fields (differences other than the rate-limit headers and a Content-Length shorter than any Pet or Pets: warnings)', quote: 'RFC 9110, 9.3.2: The HEAD method is identical to GET except that the server MUST NOT send content in the response. ... The server SHOULD send the same header fields in response to a HEAD request as it would have sent if the request method had been GET. 8.6: a server MUST NOT send Content-Length in such a response unless its field value equals the decimal number of octets that would have been sent in the content of a response if the same request had used the GET method. The contract: Every API response carries these headers.', reachedBy: 'a HEAD answered 2xx', status: 'none' },
  { id: 'http.strong-etag', checkId: 'http-semantics', operations: ['*'], title: 'A strong ETag names one body of its URL', quote: 'RFC 9110, 8.8.1: A "strong validator" is representation metadata that changes value whenever a change occurs to the representation data that would be observable in the content of a 200 (OK) response to GET.', reachedBy: 'a strong ETag given twice for one URL', status: 'none' },
  // HTTP/1.x framing, judged on the bytes of raw connections (the http-framing check's probe): the
  // contract is JSON over HTTP, and a client in any language reads HTTP/1.1 as RFC 9112 frames it.
  { id: 'framing.message-syntax', checkId: 'http-framing', operations: ['*'], title: 'A status line and field lines a client can parse', quote: 'All request and response bodies are JSON (`application/json`). (RFC 9112, 2.1, 4, 5: HTTP-message = start-line CRLF *( field-line CRLF ) CRLF [ message-body ]; no whitespace between a field name and its colon; a sender MUST NOT generate line folding.)', reachedBy: 'an answer on a raw connection (not in-process)', status: 'none' },
  { id: 'framing.one-length', checkId: 'http-framing', operations: ['*'], title: 'One framing: never Content-Length with Transfer-Encoding, never two lengths', quote: 'RFC 9112, 6.2: A sender MUST NOT send a Content-Length header field in any message that contains a Transfer-Encoding header field. RFC 9112, 6.3: a Content-Length that is not one valid number makes the framing invalid.', reachedBy: 'an answer with a body on a raw connection', status: 'none' },
  { id: 'framing.length-exact', checkId: 'http-framing', operations: ['*'], title: 'Content-Length equals the bytes of the body that follows', quote: 'RFC 9112, 6.3: If a valid Content-Length header field is present without Transfer-Encoding, its decimal value defines the expected message body length in octets. If the sender closes the connection or the recipient times out before the indicated number of octets are received, the recipient MUST consider the message to be incomplete.', reachedBy: 'an answer framed by Content-Length on a raw connection', status: 'none' },
  { id: 'framing.chunked-valid', checkId: 'http-framing', operations: ['*'], title: 'A chunked body is well formed and ends', quote: 'RFC 9112, 7.1: chunked-body = *chunk last-chunk trailer-section CRLF; chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF.', reachedBy: 'a chunked answer on a raw connection', status: 'none' },
  { id: 'framing.no-chunked-to-1.0', checkId: 'http-framing', operations: ['*'], title: 'An HTTP/1.0 request gets an answer it can frame: no Transfer-Encoding', quote: 'RFC 9112, 6.1: A server MUST NOT send a response containing Transfer-Encoding unless the corresponding request indicates HTTP/1.1 (or later minor revisions).', reachedBy: 'an HTTP/1.0 request on a raw connection', status: 'none' },
  { id: 'framing.head-no-body', checkId: 'http-framing', operations: ['*'], title: 'An answer to HEAD ends with its head', quote: 'RFC 9110, 9.3.2: The HEAD method is identical to GET except that the server MUST NOT send content in the response. RFC 9112, 6.3: any response to a HEAD request is terminated by the first empty line after the header fields.', reachedBy: 'a HEAD on a raw connection (not with --read-only)', status: 'none' },
  { id: 'framing.close-honoured', checkId: 'http-framing', operations: ['*'], title: 'The close a request asks for, or an answer announces, is made', quote: 'RFC 9112, 9.6: A server that receives a "close" connection option MUST initiate closure of the connection after it sends the final response to the request that contained the "close" connection option.', reachedBy: 'a request with Connection: close, or in HTTP/1.0, on a raw connection', status: 'none' },
  { id: 'framing.connection-reusable', checkId: 'http-framing', operations: ['*'], title: 'After an answer on a kept-alive connection, the next request gets its own answer', quote: 'RFC 9112, 9.3: HTTP/1.1 defaults to the use of "persistent connections", allowing multiple requests and responses to be carried over a single connection. In order to remain persistent, all messages on a connection need to have a self-defined message length.', reachedBy: 'two requests on one kept-alive raw connection (a deployment that closes after each answer leaves it open)', status: 'none' },
  { id: 'framing.pipelined-in-order', checkId: 'http-framing', operations: ['listPets', 'getPet'], title: 'Pipelined requests are each answered, whole and in order', quote: 'RFC 9112, 9.3.2: A server MAY process a sequence of pipelined requests in parallel if they all have safe methods, but it MUST send the corresponding responses in the same order that the requests were received.', reachedBy: 'pipelined requests on a connection the deployment keeps open (closing after each answer is legal and leaves it open)', status: 'none' },
  { id: 'framing.body-read-whole', checkId: 'http-framing', operations: ['createPet'], title: 'A body sent chunked, or split across writes, is read as the one sent', quote: 'Adds an animal. The request body is required, is `application/json`, and has the shape NewPet. (RFC 9112, 7.1: A recipient MUST be able to parse the chunked transfer coding; 6.3: a server MAY refuse a body without Content-Length with 411.)', reachedBy: 'a create on a raw connection (not with --read-only)', needs: 'writes', status: 'none' },
];

