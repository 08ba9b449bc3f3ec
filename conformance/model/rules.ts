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
  | 'wire.answered'
  | 'deprecation.only-get-pet'
  | 'deprecation.sunset-date'
  | 'auth.keyless-refused'
  | 'unlisted.not-served-without-key'
  | 'unlisted.refusal-shape'
  | 'unlisted.no-5xx'
  | 'equivalent.same-status'
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
  /** What an option of the run must allow for it to be reached: a 429 (`--probe-rate-limit`), or creates (not `--read-only`). */
  needs?: 'probe' | 'writes';
}

const pets = ['listPets', 'createPet', 'getPet'] as const;
const all = ['listPets', 'createPet', 'getPet', 'listStoreOrders'] as const;
/** Rate limits count every request with the key, those the spec does not list too. */
const counted = [...all, 'unlisted'] as const;

export const rules: readonly Rule[] = [
  { id: 'data.created-as-sent', checkId: 'data-integrity', operations: ['createPet'], title: 'A 201 holds the pet as sent, with a new id', quote: '201 | Pet (the created animal including its assigned `id`).', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes' },
  { id: 'data.read-back', checkId: 'data-integrity', operations: ['listPets', 'getPet'], title: 'What is read back equals what the run knows of that id, field by field', quote: 'A Pet has all fields of NewPet plus `id`. | id | Unique identifier assigned by the service on creation.', reachedBy: 'a pet read twice, or read after the run created it' },
  { id: 'data.one-id-one-pet', checkId: 'data-integrity', operations: ['getPet'], title: 'GET /pets/{petId} returns the pet with that id', quote: 'GET /pets/{petId} (operation `getPet`) Returns one animal. | petId | Identifier of the animal.', reachedBy: 'a getPet answered 200' },
  { id: 'data.new-id', checkId: 'data-integrity', operations: ['createPet'], title: 'A create gets an id no other pet has', quote: 'id | Unique identifier assigned by the service on creation.', reachedBy: 'a create answered 201 (not with --read-only)', needs: 'writes' },
  { id: 'data.created-found', checkId: 'data-integrity', operations: ['getPet'], title: 'A pet the run created is found by its id', quote: '404 | Error. The requested resource could not be found.', reachedBy: 'a getPet of a pet the run created', needs: 'writes' },
  { id: 'data.list-unique', checkId: 'data-integrity', operations: ['listPets'], title: 'A list names each id once', quote: 'Pets: A JSON array of Pet objects. | id | Unique identifier', reachedBy: 'a list answered 200' },
  { id: 'data.status-filter', checkId: 'data-integrity', operations: ['listPets'], title: 'A filtered list holds only that status, however the query is spelled', quote: 'status | string (PetStatus) | Returns only animals with this status.', reachedBy: 'a list with a status filter answered 200' },
  { id: 'data.limit-bound', checkId: 'data-integrity', operations: ['listPets'], title: '`limit` bounds every list (20 when absent), however the query is spelled', quote: 'limit | Minimum 1, maximum 100, default 20. Maximum number of animals returned.', reachedBy: 'a list answered 200' },
  { id: 'data.id-exact', checkId: 'data-integrity', operations: ['getPet'], title: 'A petId that is not an integer is not served', quote: 'petId | integer (int64) | Identifier of the animal.', reachedBy: 'a getPet with a malformed id' },
  { id: 'rate.limit-steady', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Limit is one value within a window', quote: 'X-RateLimit-Limit | The limit in force.', reachedBy: 'two answers to the key in one window' },
  { id: 'rate.cost', checkId: 'rate-limit-accounting', operations: counted, title: 'Each request accepted with the key costs exactly one (a refused one, one or none)', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'two answers to the key in one window, the run the key\'s only user (not with --shared-key)' },
  { id: 'rate.no-rise', checkId: 'rate-limit-accounting', operations: counted, title: 'X-RateLimit-Remaining never rises within a window', quote: 'X-RateLimit-Remaining | Requests remaining in the current window. X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'two answers to the key in one window' },
  { id: 'rate.429-only-when-spent', checkId: 'rate-limit-accounting', operations: counted, title: 'A 429 comes only once Remaining reached 0', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' },
  { id: 'rate.429-says-zero', checkId: 'rate-limit-accounting', operations: counted, title: 'A 429 says X-RateLimit-Remaining 0', quote: 'Requests over the limit receive 429 Too Many Requests. | X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' },
  { id: 'rate.retry-after-covers-reset', checkId: 'rate-limit-accounting', operations: counted, title: 'Retry-After is never shorter than the time to X-RateLimit-Reset', quote: 'The client should back off and retry after the time given in the `Retry-After` header. | X-RateLimit-Reset | Unix timestamp at which the limit resets.', reachedBy: 'a 429 (--probe-rate-limit)', needs: 'probe' },
  { id: 'rate.concurrent-counted', checkId: 'rate-limit-accounting', operations: counted, title: 'Concurrent requests are each counted', quote: 'X-RateLimit-Remaining | Requests remaining in the current window.', reachedBy: 'a burst of parallel requests with the key' },
  { id: 'rate.over-limit-refused', checkId: 'rate-limit-accounting', operations: counted, title: 'Once the window is spent, every request (a POST too) gets 429 until the reset', quote: 'Requests over the limit receive 429 Too Many Requests.', reachedBy: 'requests after a 429 (--probe-rate-limit)', needs: 'probe' },
  { id: 'wire.utf8', checkId: 'wire-format', operations: ['*'], title: 'Bodies are UTF-8', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 8.1: JSON exchanged between systems is UTF-8.)', reachedBy: 'any answer with a body' },
  { id: 'wire.no-bom', checkId: 'wire-format', operations: ['*'], title: 'No byte-order mark', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 8.1: implementations MUST NOT add a byte order mark.)', reachedBy: 'any answer with a body' },
  { id: 'wire.charset', checkId: 'wire-format', operations: ['*'], title: 'A charset label tells the truth', quote: 'All request and response bodies are JSON (`application/json`). (RFC 8259, 11: application/json has no charset but UTF-8.)', reachedBy: 'any answer with a body' },
  { id: 'wire.one-json-value', checkId: 'wire-format', operations: ['*'], title: 'A body is one JSON value', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer with a body' },
  { id: 'wire.header-once', checkId: 'wire-format', operations: ['*'], title: 'Each rate-limit header appears once', quote: 'Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.', reachedBy: 'any answer' },
  { id: 'wire.readable', checkId: 'wire-format', operations: ['*'], title: 'An answer arrives whole and readable', quote: 'All request and response bodies are JSON (`application/json`).', reachedBy: 'any answer' },
  { id: 'wire.answered', checkId: 'wire-format', operations: pets, title: 'A documented operation answers while the deployment answers others', quote: 'GET /pets (operation `listPets`) Returns a paginated list of animals. | POST /pets (operation `createPet`) Adds an animal. | GET /pets/{petId} (operation `getPet`) Returns one animal.', reachedBy: 'an answer to the operation' },
  { id: 'deprecation.only-get-pet', checkId: 'deprecation', operations: ['listPets', 'createPet', 'listStoreOrders'], title: 'Only getPet is declared deprecated', quote: 'GET /pets/{petId} (operation `getPet`) - deprecated. | The last operation is deprecated.', reachedBy: 'any answer to another operation' },
  { id: 'deprecation.sunset-date', checkId: 'deprecation', operations: ['getPet'], title: 'Where getPet states its removal, it is 5 December 2030', quote: 'This operation is deprecated and is to be removed on 5 December 2030.', reachedBy: 'a getPet answer carrying Sunset or Deprecation' },
  { id: 'auth.keyless-refused', checkId: 'keyless-and-unlisted', operations: all, title: 'Without a valid key, every operation answers 401, whatever the spelling or connection', quote: 'When the key is missing or invalid, the response is 401 with an Error body.', reachedBy: 'a request without a valid key' },
  { id: 'unlisted.not-served-without-key', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'No method or path is served (2xx) without the key, a CORS preflight aside', quote: 'All endpoints below require authentication. | Every operation requires HTTP bearer authentication.', reachedBy: 'an undocumented method or path sent without the key' },
  { id: 'unlisted.refusal-shape', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'A refusal of an undocumented request carries the rate-limit headers and an Error (HEAD: the headers)', quote: 'Every API response carries these headers. | Error responses carry an Error body (`code`, `message`, `status`).', reachedBy: 'an undocumented method or path refused' },
  { id: 'unlisted.no-5xx', checkId: 'keyless-and-unlisted', operations: ['*'], title: 'An undocumented method or path is served or refused, never answered 5xx', quote: 'Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code. (RFC 9110, 15.6: 5xx means the server failed.)', reachedBy: 'an undocumented method or path' },
  { id: 'equivalent.same-status', checkId: 'equivalent-requests', operations: pets, title: 'Equivalent spellings of one request get the same status', quote: 'The client sends its API key in the header `Authorization` as a bearer token. All request and response bodies are JSON (`application/json`). (RFC 9110: header names, the auth scheme and media types are case-insensitive; parameter order is free.)', reachedBy: 'a request sent in several spellings' },
  // HTTP/1.x framing, judged on the bytes of raw connections (the http-framing check's probe): the
  // contract is JSON over HTTP, and a client in any language reads HTTP/1.1 as RFC 9112 frames it.
  { id: 'framing.message-syntax', checkId: 'http-framing', operations: ['*'], title: 'A status line and field lines a client can parse', quote: 'All request and response bodies are JSON (`application/json`). (RFC 9112, 2.1, 4, 5: HTTP-message = start-line CRLF *( field-line CRLF ) CRLF [ message-body ]; no whitespace between a field name and its colon; a sender MUST NOT generate line folding.)', reachedBy: 'an answer on a raw connection (not in-process)' },
  { id: 'framing.one-length', checkId: 'http-framing', operations: ['*'], title: 'One framing: never Content-Length with Transfer-Encoding, never two lengths', quote: 'RFC 9112, 6.2: A sender MUST NOT send a Content-Length header field in any message that contains a Transfer-Encoding header field. RFC 9112, 6.3: a Content-Length that is not one valid number makes the framing invalid.', reachedBy: 'an answer with a body on a raw connection' },
  { id: 'framing.length-exact', checkId: 'http-framing', operations: ['*'], title: 'Content-Length equals the bytes of the body that follows', quote: 'RFC 9112, 6.3: If a valid Content-Length header field is present without Transfer-Encoding, its decimal value defines the expected message body length in octets. If the sender closes the connection or the recipient times out before the indicated number of octets are received, the recipient MUST consider the message to be incomplete.', reachedBy: 'an answer framed by Content-Length on a raw connection' },
  { id: 'framing.chunked-valid', checkId: 'http-framing', operations: ['*'], title: 'A chunked body is well formed and ends', quote: 'RFC 9112, 7.1: chunked-body = *chunk last-chunk trailer-section CRLF; chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF.', reachedBy: 'a chunked answer on a raw connection' },
  { id: 'framing.no-chunked-to-1.0', checkId: 'http-framing', operations: ['*'], title: 'An HTTP/1.0 request gets an answer it can frame: no Transfer-Encoding', quote: 'RFC 9112, 6.1: A server MUST NOT send a response containing Transfer-Encoding unless the corresponding request indicates HTTP/1.1 (or later minor revisions).', reachedBy: 'an HTTP/1.0 request on a raw connection' },
  { id: 'framing.head-no-body', checkId: 'http-framing', operations: ['*'], title: 'An answer to HEAD ends with its head', quote: 'RFC 9110, 9.3.2: The HEAD method is identical to GET except that the server MUST NOT send content in the response. RFC 9112, 6.3: any response to a HEAD request is terminated by the first empty line after the header fields.', reachedBy: 'a HEAD on a raw connection (not with --read-only)' },
  { id: 'framing.close-honoured', checkId: 'http-framing', operations: ['*'], title: 'The close a request asks for, or an answer announces, is made', quote: 'RFC 9112, 9.6: A server that receives a "close" connection option MUST initiate closure of the connection after it sends the final response to the request that contained the "close" connection option.', reachedBy: 'a request with Connection: close, or in HTTP/1.0, on a raw connection' },
  { id: 'framing.connection-reusable', checkId: 'http-framing', operations: ['*'], title: 'After an answer on a kept-alive connection, the next request gets its own answer', quote: 'RFC 9112, 9.3: HTTP/1.1 defaults to the use of "persistent connections", allowing multiple requests and responses to be carried over a single connection. In order to remain persistent, all messages on a connection need to have a self-defined message length.', reachedBy: 'two requests on one kept-alive raw connection (a deployment that closes after each answer leaves it open)' },
  { id: 'framing.pipelined-in-order', checkId: 'http-framing', operations: ['listPets', 'getPet'], title: 'Pipelined requests are each answered, whole and in order', quote: 'RFC 9112, 9.3.2: A server MAY process a sequence of pipelined requests in parallel if they all have safe methods, but it MUST send the corresponding responses in the same order that the requests were received.', reachedBy: 'pipelined requests on a connection the deployment keeps open (closing after each answer is legal and leaves it open)' },
  { id: 'framing.body-read-whole', checkId: 'http-framing', operations: ['createPet'], title: 'A body sent chunked, or split across writes, is read as the one sent', quote: 'Adds an animal. The request body is required, is `application/json`, and has the shape NewPet. (RFC 9112, 7.1: A recipient MUST be able to parse the chunked transfer coding; 6.3: a server MAY refuse a body without Content-Length with 411.)', reachedBy: 'a create on a raw connection (not with --read-only)', needs: 'writes' },
];

