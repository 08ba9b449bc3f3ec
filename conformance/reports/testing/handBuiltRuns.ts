// Run records built by hand for the report writers' tests: what a run records (its checks' verdicts,
// findings with evidence, the exchanges and the requests that got no answer), with no deployment
// and no run. The writers render records; what a run records is the runner's tests' to prove.
import { Outcomes, type Check } from '../../check.ts';
import { parseBody, type Exchange, type Intent } from '../../http/exchange.ts';
import { responseOf } from '../../http/transport.ts';
import { assembleRunReport, cannotRunReport, checkStatus, summarizeExchanges, type CheckReport, type RunReport, type UnansweredSummary } from '../../runReport.ts';

export const baseUrl = 'http://deployment.test/v1';
const started = Date.UTC(2026, 10, 28, 9, 0, 0);
const resetS = Math.floor(started / 1000) + 60;
const rateHeaders = (remaining: number) => ({ 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetS) });
const json = { 'content-type': 'application/json; charset=utf-8' };
const keyed = { authorization: 'Bearer $PETS_API_KEY', 'user-agent': 'pets-conformance/0.2.0' };

interface Sent {
  check: string;
  operationId: string;
  case?: string;
  intent?: Intent;
  method?: string;
  path: string;
  requestHeaders?: Record<string, string>;
  requestBody?: string;
  status: number;
  headers?: Record<string, string>;
  body?: string;
  retries?: number;
}

/** A record of exchanges, numbered in the order sent, every answer with the rate-limit headers unless told. */
class RunLog {
  readonly exchanges: Exchange[] = [];
  readonly unanswered: UnansweredSummary[] = [];
  #remaining = 299;

  send(s: Sent): Exchange {
    const seq = this.exchanges.length + 1;
    const body = s.body ?? '';
    const headers = { ...json, ...rateHeaders(this.#remaining--), ...s.headers };
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name as keyof typeof headers];
    const exchange: Exchange = {
      seq,
      checkId: s.check,
      operationId: s.operationId,
      intent: s.intent ?? 'valid',
      ...(s.case !== undefined ? { case: s.case } : {}),
      path: s.path,
      bucket: (s.requestHeaders ?? keyed).authorization === undefined ? 'anonymous' : 'key',
      sentAt: started + seq * 40,
      request: { method: s.method ?? 'GET', url: `${baseUrl}${s.path}`, headers: s.requestHeaders ?? keyed, ...(s.requestBody !== undefined ? { body: s.requestBody } : {}) },
      response: { ...responseOf(s.status, headers, body), ...parseBody(body), durationMs: 12 },
      retries: s.retries ?? 0,
    };
    this.exchanges.push(exchange);
    return exchange;
  }

  /** A GET that got no answer, `tries` times, before the next exchange. */
  lost(s: Pick<Sent, 'check' | 'operationId' | 'case' | 'path'>, error: string): void {
    this.unanswered.push({
      check: s.check,
      operationId: s.operationId,
      ...(s.case !== undefined ? { case: s.case } : {}),
      afterSeq: this.exchanges.length,
      method: 'GET',
      url: `${baseUrl}${s.path}`,
      sentAt: new Date(started + this.exchanges.length * 40 + 20).toISOString(),
      ms: 5,
      requestHeaders: keyed,
      error,
    });
  }
}

const info = (id: string, title: string, severity: Check['severity'], operations: readonly string[]): Pick<Check, 'id' | 'title' | 'severity' | 'description' | 'operations'> => ({ id, title, severity, description: `What ${id} checks, as docs/checks.md says it at length.`, operations });

function checkReport(check: ReturnType<typeof info>, outcomes: Outcomes, log: RunLog, durationMs = 30): CheckReport {
  // The cases the check sent, as the runner records them on its outcomes.
  for (const e of log.exchanges) if (e.checkId === check.id && e.case !== undefined) outcomes.sent(e.operationId, e.case, e.response.durationMs);
  for (const u of log.unanswered) if (u.check === check.id && u.case !== undefined) outcomes.sent(u.operationId, u.case, u.ms);
  const operations = outcomes.results();
  return { ...check, status: checkStatus(operations), operations, ...(outcomes.parts().length > 0 ? { parts: outcomes.parts() } : {}), durationMs };
}

const pet = (id: number, name: string, categoryId: number | undefined, status = 'available') => ({ id, name, ...(categoryId !== undefined ? { categoryId } : {}), status });
const petsBody = (count: number, withCategory = true) => JSON.stringify(Array.from({ length: count }, (_, i) => pet(i + 1, `Pet ${i + 1}`, withCategory ? (i % 8) + 1 : undefined)));
const errorBody = (status: number, code: string, message: string) => JSON.stringify({ code, message, status });

/**
 * A run that failed four checks: listed pets without their categoryId (response-schema), a create
 * answered 200 (status-codes), an unknown pet answered with an HTML page whose text needs escaping
 * (content-type), a 401 without X-RateLimit-Limit (rate-limit-headers); and pagination, which took
 * limit=101 as 100 and lost every try of limit=1.5. Passed, skipped and inconclusive cases beside.
 */
export function failingRun(): RunReport {
  const r = new RunLog();
  r.send({ check: 'preflight', operationId: 'listPets', path: '/pets', status: 200, body: petsBody(20, false) });

  // get-pet: the known pet, then ids no pet has and ids that are none.
  const getPet = new Outcomes(['getPet']);
  const known = r.send({ check: 'get-pet', operationId: 'getPet', case: 'get-pet/path/petId/known', path: '/pets/1', status: 200, body: JSON.stringify(pet(1, 'Pet 1', 1)) });
  getPet.expect(true, known, 'unused');
  const notHere = r.send({ check: 'get-pet', operationId: 'getPet', intent: 'invalid', case: 'get-pet/path/petId/unknown', path: '/pets/1000020', status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not "here" & gone</h1>' });
  getPet.fail('getPet', `GET /pets/1000020 refused id 1000020, which no pet has, with 404 but without a valid Error body: body is not JSON; every error carries {code, message, status}.`, notHere);
  for (const [name, id] of [['non-integer', 'abc'], ['float', '1.5'], ['negative', '-1']] as const) {
    getPet.expect(true, r.send({ check: 'get-pet', operationId: 'getPet', intent: 'invalid', case: `get-pet/path/petId/${name}`, path: `/pets/${id}`, status: 400, body: errorBody(400, 'INVALID_PARAMETER', `petId ${id} is not an int64`) }), 'unused');
  }

  // create-pet: answered 200 where the contract says 201.
  const createBody = '{"name":"Rex \\"the <great>\\" & good","categoryId":2}';
  const created = r.send({ check: 'create-pet', operationId: 'createPet', case: 'create-pet/body/required-only', method: 'POST', path: '/pets', requestHeaders: { ...keyed, 'content-type': 'application/json' }, requestBody: createBody, status: 200, body: JSON.stringify(pet(61, 'Rex "the <great>" & good', 2)) });
  const createPet = new Outcomes(['createPet', 'getPet']);
  createPet.fail('createPet', 'POST /pets answered the NewPet with only its required properties with 200; it is a valid NewPet, so it must be created with 201.', created);
  for (const field of ['name', 'categoryId']) {
    createPet.expect(true, r.send({ check: 'create-pet', operationId: 'createPet', intent: 'invalid', case: `create-pet/body/${field}/missing`, method: 'POST', path: '/pets', requestHeaders: { ...keyed, 'content-type': 'application/json' }, requestBody: field === 'name' ? '{"categoryId":2}' : '{"name":"Rex"}', status: 400, body: errorBody(400, 'VALIDATION_ERROR', `${field} is required`) }), 'unused');
  }

  // auth: a request without the key, refused with 401 and the Bearer challenge, but one rate-limit header short.
  const auth = new Outcomes(['listPets', 'createPet', 'getPet', 'listStoreOrders']);
  const refused = r.send({ check: 'auth', operationId: 'listPets', intent: 'unauthenticated', case: 'auth/list-pets/no-header', path: '/pets?limit=1', requestHeaders: { 'user-agent': 'pets-conformance/0.2.0' }, status: 401, headers: { 'www-authenticate': 'Bearer realm="pets"', 'x-ratelimit-limit': '' }, body: errorBody(401, 'UNAUTHORIZED', 'Missing or invalid API key.') });
  auth.expect(true, refused, 'unused');
  auth.expect(true, r.send({ check: 'auth', operationId: 'getPet', intent: 'unauthenticated', case: 'auth/get-pet/no-header', path: '/pets/1', requestHeaders: { 'user-agent': 'pets-conformance/0.2.0' }, status: 401, headers: { 'www-authenticate': 'Bearer realm="pets"' }, body: errorBody(401, 'UNAUTHORIZED', 'Missing or invalid API key.') }), 'unused');
  auth.skip('createPet', 'it writes, and --read-only is on');

  // pagination: limit=101 served as 100; every try of limit=1.5 lost.
  const pagination = new Outcomes(['listPets']);
  for (const [name, limit, count] of [['min', '1', 1], ['max', '100', 60], ['default', '20', 20], ['above-max', '101', 60], ['zero', '0', 0], ['non-integer', 'abc', 0]] as const) {
    const refuse = name === 'zero' || name === 'non-integer' || name === 'above-max';
    const e = r.send({ check: 'pagination', operationId: 'listPets', intent: refuse ? 'invalid' : 'valid', case: `list-pets/query/limit/${name}`, path: `/pets?limit=${limit}`, status: refuse && name !== 'above-max' ? 400 : 200, body: refuse && name !== 'above-max' ? errorBody(400, 'INVALID_PARAMETER', `limit ${limit} is out of range`) : petsBody(count) });
    if (name === 'above-max') pagination.fail('listPets', 'GET /pets?limit=101, sent limit 101, above its maximum of 100, was answered 200; limit is at most 100, so it must be refused with a 4xx and an Error body.', e);
    else pagination.expect(true, e, 'unused');
  }
  const float = { check: 'pagination', operationId: 'listPets', case: 'list-pets/query/limit/float', path: '/pets?limit=1.5' };
  for (let i = 0; i < 3; i++) r.lost(float, 'GET http://deployment.test/v1/pets?limit=1.5 failed: UND_ERR_SOCKET');
  pagination.inconclusive('listPets', 'GET http://deployment.test/v1/pets?limit=1.5 failed: UND_ERR_SOCKET (3 tries)', float.case);
  // A GET answered on its second try, the first lost.
  r.lost({ check: 'pagination', operationId: 'listPets', case: 'list-pets/query/limit/absent', path: '/pets' }, 'GET http://deployment.test/v1/pets failed: ECONNRESET');
  pagination.expect(true, r.send({ check: 'pagination', operationId: 'listPets', case: 'list-pets/query/limit/absent', path: '/pets', status: 200, body: petsBody(20), retries: 1 }), 'unused');

  // The passive checks, over every exchange above.
  const all = r.exchanges.filter((e) => e.checkId !== 'preflight');
  const statusCodes = new Outcomes(['listPets', 'createPet', 'getPet', 'listStoreOrders']);
  for (const e of all) {
    if (e === created) statusCodes.fail('createPet', `POST ${baseUrl}/pets answered 200, which the contract does not document for createPet (it documents 201, 400, 401).`, e, 'undocumented 200');
    else statusCodes.examined(e.operationId);
  }
  const contentType = new Outcomes(['listPets', 'createPet', 'getPet', 'listStoreOrders']);
  for (const e of all) {
    if (e === notHere) contentType.fail('getPet', `GET ${baseUrl}/pets/1000020 answered 404 with Content-Type "text/html"; it must be application/json.`, e, 'type 404');
    else contentType.examined(e.operationId);
  }
  const responseSchema = new Outcomes(['listPets', 'createPet', 'getPet', 'listStoreOrders']);
  for (const e of all) {
    if (e.operationId === 'listPets' && e.response.status === 200) responseSchema.fail('listPets', `GET ${e.request.url} answered 200 with a body that does not match the spec: body[0].categoryId is required.`, e, 'schema 200 categoryId');
    else responseSchema.examined(e.operationId);
  }
  const rateLimitHeaders = new Outcomes(['listPets', 'createPet', 'getPet', 'listStoreOrders']);
  for (const e of all) {
    if (e === refused) rateLimitHeaders.fail('listPets', `GET ${e.request.url} (401) lacks x-ratelimit-limit, which the spec requires on this answer: the contract puts the three rate-limit headers on every response and Retry-After on every 429.`, e, 'missing x-ratelimit-limit');
    else rateLimitHeaders.examined(e.operationId);
  }
  const probe = new Outcomes(['listPets']);
  probe.skipAll('off by default: it spends the key\'s quota; turn it on with --probe-rate-limit');
  const traffic = new Outcomes(['listPets', 'createPet', 'getPet', 'unlisted']);
  traffic.ran('sequences', 0, 12, 'the run\'s time budget (--max-duration) ran out');
  traffic.inconclusive('listPets', 'the run\'s time budget (--max-duration) ran out after 0 of 12 sequences');
  const deprecation = new Outcomes(['getPet']);
  deprecation.warn('getPet', 'GET /pets/1 answered 200 without Deprecation or Sunset; the contract deprecates getPet, so a client is never told. The contract: "This operation is deprecated and is to be removed on 5 December 2030."', known, 'deprecation.sunset-date', { rule: { id: 'deprecation.sunset-date', quote: 'This operation is deprecated and is to be removed on 5 December 2030.' } });
  deprecation.examined('getPet');

  const checks = [
    checkReport(info('auth', 'Every operation needs a valid bearer key, checked first', 'critical', auth.operations), auth, r),
    checkReport(info('pagination', 'limit is honoured and bounded to 1..100, default 20', 'high', pagination.operations), pagination, r),
    checkReport(info('get-pet', 'GET /pets/{petId} returns the pet, or refuses the id', 'high', getPet.operations), getPet, r),
    checkReport(info('create-pet', 'POST /pets creates what it is sent, and refuses every invalid body', 'critical', createPet.operations), createPet, r),
    checkReport(info('generated-traffic', 'Generated sequences: every operation, every spelling, edge values, bursts', 'high', traffic.operations), traffic, r),
    checkReport(info('rate-limit-probe', 'Over the limit: 429 with Retry-After, when the headers said', 'high', probe.operations), probe, r, 0),
    checkReport(info('status-codes', 'Every status is documented, and never a 5xx', 'critical', statusCodes.operations), statusCodes, r),
    checkReport(info('content-type', 'Bodies are JSON, labelled application/json', 'high', contentType.operations), contentType, r),
    checkReport(info('response-schema', 'Bodies match their schemas', 'high', responseSchema.operations), responseSchema, r),
    checkReport(info('rate-limit-headers', 'Rate-limit headers on every answer, well-formed', 'high', rateLimitHeaders.operations), rateLimitHeaders, r),
    checkReport(info('deprecation', 'Deprecation facts hold wherever they are stated', 'medium', deprecation.operations), deprecation, r),
  ];
  return assembleRunReport({
    runId: 'run-0001',
    baseUrl,
    startedAt: started,
    durationMs: 4200,
    verdict: 'failed',
    options: { readOnly: false, probeRateLimit: false, seed: 1, depth: 'quick', checks: checks.map((c) => c.id), sharedKey: false, secondKey: false, maxDurationMs: 600_000, allowPartial: false },
    requests: { total: r.exchanges.length, withKey: r.exchanges.filter((e) => e.bucket === 'key').length, withoutKey: r.exchanges.filter((e) => e.bucket === 'anonymous').length, retried: 1, failedAtTransport: 4 },
    notes: ['Request #3 was answered 503 (unavailable); sent again after 1.0 s.'],
    checks,
    coverage: [
      { rule: 'data.read-back', check: 'data-integrity', operation: 'getPet', title: 'What is read back equals what the run knows of that id, field by field', quote: 'A Pet has all fields of NewPet plus `id`.', status: 'judged', exchanges: 4, failures: 0 },
      { rule: 'rate.429-says-zero', check: 'rate-limit-accounting', operation: 'listPets', title: 'A 429 says X-RateLimit-Remaining 0', quote: 'Requests over the limit receive 429 Too Many Requests.', status: 'not reached', exchanges: 0, failures: 0, reason: 'no 429 is met without --probe-rate-limit' },
    ],
    reproductions: [],
    exchanges: summarizeExchanges(r.exchanges),
    unanswered: r.unanswered,
  });
}

/** The names of the checks `failingRun` failed. */
export const failingRunFails = ['create-pet', 'pagination', 'get-pet', 'status-codes', 'content-type', 'response-schema', 'rate-limit-headers'];

/** A refused key, as the runner records it: the reason and the one exchange that showed it. */
export function refusedKeyRun(): RunReport {
  const r = new RunLog();
  r.send({ check: 'preflight', operationId: 'listPets', path: '/pets', status: 401, headers: { 'www-authenticate': 'Bearer realm="pets", error="invalid_token"' }, body: errorBody(401, 'UNAUTHORIZED', 'Missing or invalid API key.') });
  return assembleRunReport({
    runId: 'run-0002',
    baseUrl,
    startedAt: started,
    durationMs: 15,
    verdict: 'cannot-run',
    reason: `The deployment refused the API key: GET ${baseUrl}/pets answered 401. Check --api-key (or PETS_API_KEY): with a key the deployment does not accept, no check can be judged.`,
    options: { readOnly: false, probeRateLimit: false, seed: 1, depth: 'quick', checks: [], sharedKey: false, secondKey: false, maxDurationMs: 600_000, allowPartial: false },
    requests: { total: 1, withKey: 1, withoutKey: 0, retried: 0, failedAtTransport: 0 },
    notes: [],
    checks: [],
    exchanges: summarizeExchanges(r.exchanges),
  });
}

/** A run stopped before it sent anything. */
export const notRunAtAll = (): RunReport => cannotRunReport({ reason: 'no API key. Give --api-key or set PETS_API_KEY.', baseUrl: 'https://staging.example.com/v1' });

/** A deployment that could not be reached: the preflight's GET tried three times, no answer. */
export function unreachableRun(): RunReport {
  const r = new RunLog();
  const read = { check: 'preflight', operationId: 'listPets', path: '/pets' };
  for (let i = 0; i < 3; i++) r.lost(read, `GET ${baseUrl}/pets failed: ECONNREFUSED`);
  return assembleRunReport({
    runId: 'run-0003',
    baseUrl,
    startedAt: started,
    durationMs: 800,
    verdict: 'cannot-run',
    reason: `Cannot reach ${baseUrl}: GET ${baseUrl}/pets failed: ECONNREFUSED (3 tries). Check the base URL and that the deployment is up, then run again.`,
    options: { readOnly: false, probeRateLimit: false, seed: 1, depth: 'quick', checks: [], sharedKey: false, secondKey: false, maxDurationMs: 600_000, allowPartial: false },
    requests: { total: 0, withKey: 0, withoutKey: 0, retried: 0, failedAtTransport: 3 },
    notes: [],
    checks: [],
    exchanges: [],
    unanswered: r.unanswered,
  });
}
