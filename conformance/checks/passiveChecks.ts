// The checks that send nothing: each reports the model's judgements of its rules over every exchange
// of the run (or of the proxy's traffic), so its verdict alone is the verdict it gives in a full run.
import type { Check } from '../check.ts';

/** The contract's operations; a check about answers to them judges no method or path it does not list. */
const contractOperations = ['listPets', 'createPet', 'getPet', 'listStoreOrders'] as const;
const operations = [...contractOperations, 'unlisted'] as const;

type PassiveCheckInfo = Pick<Check, 'id' | 'title' | 'severity' | 'description' | 'readsBodies'> & { operations?: readonly string[] };

/** A check whose judgements are the model's of its rules. */
export function passiveCheck(info: PassiveCheckInfo): Check {
  return { operations, ...info, phase: 'passive', judge: (input) => input.model.judgements, unreached: 'no exchange of the run reached its rules' };
}

export const statusCodes = passiveCheck({
  id: 'status-codes',
  operations: contractOperations,
  title: 'Every status is documented, and never a 5xx',
  severity: 'critical',
  description:
    'Every answer to a valid request has a status the contract documents for its operation, and no ' +
    'request, whatever it sends, gets a 5xx. (What an invalid request must get is judged by the check that sent it.)',
});

export const contentType = passiveCheck({
  id: 'content-type',
  operations: contractOperations,
  title: 'Bodies are JSON, labelled application/json',
  severity: 'high',
  description:
    'Every answer that has or should have a body carries valid JSON with Content-Type application/json, ' +
    'as the contract says "all request and response bodies are JSON (application/json)".',
});

export const responseSchema = passiveCheck({
  id: 'response-schema',
  operations: contractOperations,
  title: 'Bodies match their schemas',
  severity: 'high',
  description:
    'Every JSON body matches the schema the spec gives its status: every Pet of every list, every ' +
    'created or fetched Pet, and every Error, whose `status` must equal the HTTP status. Integers are read ' +
    'losslessly, and the fields the contract types integer (id, categoryId, an Error\'s status) held to int64. ' +
    'Extra fields are allowed, whatever numbers they hold.',
});

export const rateLimitHeaders = passiveCheck({
  id: 'rate-limit-headers',
  operations: contractOperations,
  title: 'Rate-limit headers on every answer, well-formed',
  severity: 'high',
  description:
    'Every answer, whatever its status, carries X-RateLimit-Limit, -Remaining and -Reset as integers; ' +
    'Remaining is never above Limit; Reset is a Unix time in seconds, not in the past and at most two days ahead; ' +
    'every 429 carries a Retry-After (delay-seconds or an HTTP-date); and Remaining counts down as successful ' +
    'requests are made (eight in a row that leave it where it was fail).',
});

export const dataIntegrity = passiveCheck({
  id: 'data-integrity',
  readsBodies: true,
  title: 'What is read back is what was created, one id one pet',
  severity: 'critical',
  description:
    'Every pet the run creates or reads is held by the model; every later answer (the 201, getPet, every item of every list) must equal it field by field, ' +
    'character by character. Ids are unique within a list and across the run, a create gets a new id, a created pet is found by its id, a filtered list ' +
    'holds only its status and `limit` bounds every list, however the query is spelled.',
});

export const rateLimitAccounting = passiveCheck({
  id: 'rate-limit-accounting',
  title: 'Rate limits add up, per key and window',
  severity: 'high',
  description:
    'Within a window (answers with one X-RateLimit-Reset), Limit is one value, each request accepted with the key costs exactly one and Remaining never rises; ' +
    'parallel requests are each counted; a 429 comes only once Remaining reached 0, says 0, and its Retry-After is not shorter than the time to Reset; ' +
    'after it, nothing with the key is served before the reset. Assumes the run is the key\'s only user (--shared-key relaxes this).',
});

export const wireFormat = passiveCheck({
  id: 'wire-format',
  readsBodies: true,
  title: 'Answers as bytes: UTF-8, no BOM, a true charset, one JSON value, each header once',
  severity: 'high',
  description: 'Bodies are judged as bytes, as any client reads them: UTF-8, no byte-order mark, a charset label that tells the truth, one JSON value, each rate-limit header once, and a body of readable size.',
});

export const deprecation = passiveCheck({
  id: 'deprecation',
  title: 'Deprecation facts hold wherever they are stated',
  severity: 'medium',
  description: 'Only getPet may be declared deprecated (Deprecation or Sunset on listPets or createPet fails; GET /store/orders, which the contract does not show, and unlisted requests are judged on the fields\' grammar only); a Sunset on getPet names 5 December 2030, and a Deprecation instant lies before it. Wherever sent, Deprecation is a structured-field date (@<seconds>), Sunset an IMF-fixdate not earlier than it (RFC 9745, 4). After 5 December 2030, getPet answered 410 or 404 is the announced removal.',
});

export const keylessAndUnlisted = passiveCheck({
  id: 'keyless-and-unlisted',
  readsBodies: true,
  title: 'Nothing is served without the key, and undocumented requests are refused properly',
  severity: 'critical',
  description:
    'Every request without a valid key (any spelling, on a connection that just carried the key, for a URL just fetched with it) is refused with 401, and a key once ' +
    'served is accepted on every operation; methods and paths ' +
    'the spec does not list (HEAD, PUT, PATCH, DELETE, OPTIONS, a trailing slash, unknown paths) are never served without the key (a CORS preflight aside), never answered 5xx, ' +
    'and refused with the rate-limit headers and an Error body (HEAD: the headers).',
});

export const equivalentRequests = passiveCheck({
  id: 'equivalent-requests',
  title: 'Equivalent forms of a request get the same outcome',
  severity: 'high',
  description:
    'Metamorphic relations: one valid request sent in forms the contract makes the same request (the headers of browsers, HTTP libraries, CLIs and gateways; ' +
    'header-name and scheme case; Accept; other JSON texts of one value; spellings of application/json; parameter order and encoding; a fresh connection; ' +
    'another client address) gets the status and kind of Error of its first form, the same pets back, and costs the key\'s window the same; two reads in ' +
    'either order are answered alike. A 403 to a form with an Origin (a CORS policy) is a warning.',
});

export const httpSemantics = passiveCheck({
  id: 'http-semantics',
  title: 'HTTP itself: every field parsed with its grammar and held to its meaning, every status to what it says',
  severity: 'high',
  description:
    'An HTTP linter on every exchange: each field a deployment sends (Content-Type, Content-Length, Transfer-Encoding, Content-Encoding, Date, Last-Modified, ETag, ' +
    'Cache-Control, Expires, Age, Vary, Allow, Location, Content-Location, Retry-After, WWW-Authenticate, Link, Access-Control-Allow-Origin) is parsed with its RFC grammar ' +
    'and held to its meaning; a 405 carries a true Allow, 204, 304 and HEAD carry no content, a 304 answers only a conditional GET or HEAD whose condition was false and ' +
    'carries what its 200 would and the rate-limit headers, a HEAD served answers as GET would, a strong ETag names one body, and a key one answer served is never refused 401 elsewhere. ' +
    'What HTTP requires but the contract does not (Date, WWW-Authenticate on a 401, CORS) is a warning.',
});


/** The passive checks, in the order they report. */
export const passiveChecks: readonly Check[] = [statusCodes, contentType, responseSchema, rateLimitHeaders, dataIntegrity, rateLimitAccounting, wireFormat, deprecation, keylessAndUnlisted, equivalentRequests, httpSemantics];
