import { describe, expect, it } from 'vitest';
import { exchange, judge, rateHeaders } from '../testing/exchanges.ts';
import { contentType, dataIntegrity, rateLimitHeaders, responseSchema as responseSchemaCheck, statusCodes, wireFormat } from './passiveChecks.ts';

const pet = (id: string, extra = '') => `{"id":${id},"name":"Rex","categoryId":2,"status":"available"${extra}}`;
const tooMany = (headers: Record<string, string>) => exchange({ status: 429, headers, body: '{"code":"RATE_LIMITED","message":"slow down","status":429}', intent: 'over-limit' });

describe('response-schema', () => {
  it('passes ids up to int64\'s maximum, read exactly, and extra fields', async () => {
    const verdict = await judge(responseSchemaCheck, [exchange({ status: 200, body: `[${pet('9223372036854775807', ',"tags":[]')},${pet('9007199254740993')}]` })]);
    expect(verdict.listPets).toMatchObject({ status: 'passed', findings: [] });
  });

  it('fails a listed pet whose id is one past int64, which JSON.parse would read as a plausible number', async () => {
    const verdict = await judge(responseSchemaCheck, [exchange({ status: 200, body: `[${pet('1')},${pet('9223372036854775808')}]` })]);
    expect(verdict.listPets!.status).toBe('failed');
    expect(verdict.listPets!.findings[0]!.message).toMatch(/body\[1\]\.id 9223372036854775808, beyond the int64 range/);
  });

  it('fails an Error whose status is not the HTTP status', async () => {
    const verdict = await judge(responseSchemaCheck, [exchange({ status: 404, operationId: 'getPet', intent: 'invalid', body: '{"code":"NOT_FOUND","message":"no","status":400}' })]);
    expect(verdict.getPet!.findings[0]!.message).toMatch(/Error whose status is 400/);
  });
});

describe('a body the run\'s own budget kept only in part', () => {
  const keptInPart = 'the run had already kept 32 MiB of answers, its own budget, so only the body\'s first 64 KiB were kept and it is not judged';
  const cut = () => {
    const e = exchange({ status: 200, body: `[${pet('1')},{"id":2,"na`, case: 'list-pets/query/limit/max' });
    e.response.keptInPart = keptInPart;
    e.response.json = undefined;
    delete e.response.value;
    return e;
  };

  it('is not judged as JSON by content-type: the case is skipped, saying why, and its Content-Type still judged', async () => {
    const verdict = await judge(contentType, [cut()]);
    // Passed on its label alone; whether the body is JSON is the inconclusive case.
    expect(verdict.listPets).toMatchObject({ status: 'passed', findings: [], inconclusive: [{ case: 'list-pets/query/limit/max', reason: `GET /pets was answered 200, but ${keptInPart}` }] });
    const mislabelled = cut();
    mislabelled.response.headers['content-type'] = 'text/html';
    expect((await judge(contentType, [mislabelled])).listPets!.findings[0]!.message).toMatch(/Content-Type "text\/html"; it must be application\/json/);
  });

  it('is not judged by response-schema, nor by the model\'s body rules, which name it as not judged', async () => {
    expect((await judge(responseSchemaCheck, [cut()])).listPets).toMatchObject({ status: 'skipped', findings: [], inconclusive: [{ reason: `GET /pets was answered 200, but ${keptInPart}` }] });
    for (const check of [wireFormat, dataIntegrity]) {
      const verdict = await judge(check, [cut()]);
      expect(verdict.listPets!.findings.filter((f) => f.level === 'failure'), check.id).toEqual([]);
      expect(verdict.listPets!.inconclusive, check.id).toEqual([{ case: 'list-pets/query/limit/max', reason: `GET /pets was answered 200, but ${keptInPart}` }]);
    }
  });
});

describe('rate-limit-headers', () => {
  it('fails a 429 without Retry-After, also when an earlier 429 had one', async () => {
    const verdict = await judge(rateLimitHeaders, [tooMany({ 'retry-after': '30' }), tooMany({})]);
    expect(verdict.listPets!.status).toBe('failed');
    expect(verdict.listPets!.findings[0]!.message).toMatch(/lacks retry-after/);
  });

  it('passes Retry-After as an HTTP-date', async () => {
    const verdict = await judge(rateLimitHeaders, [tooMany({ 'retry-after': 'Mon, 01 Jun 2026 12:31:30 GMT' })]);
    expect(verdict.listPets).toMatchObject({ status: 'passed', findings: [] });
  });

  it('fails the three headers missing on a 401, as on every answer', async () => {
    const unauthorized = exchange({ status: 401, bucket: 'anonymous', intent: 'unauthenticated', body: '{"code":"UNAUTHORIZED","message":"no","status":401}' });
    for (const name of Object.keys(rateHeaders())) delete unauthorized.response.headers[name];
    const verdict = await judge(rateLimitHeaders, [unauthorized]);
    expect(verdict.listPets!.findings[0]!.message).toMatch(/lacks x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset/);
  });

  it('passes a Remaining that a window gives back once, and fails one that never counts down', async () => {
    const rolling = [99, 98, 300, 299, 298].map((left) => exchange({ status: 200, body: '[]', headers: rateHeaders(left) }));
    expect((await judge(rateLimitHeaders, rolling)).listPets!.status).toBe('passed');
    const flat = [299, 299, 299, 299, 299, 299, 299, 299, 299, 299].map((left) => exchange({ status: 200, body: '[]', headers: rateHeaders(left) }));
    expect((await judge(rateLimitHeaders, flat)).listPets!.findings[0]!.message).toMatch(/never counted it down/);
  });
});

describe('status-codes', () => {
  it('fails a 5xx whatever the request, and lets an invalid request have any 4xx', async () => {
    const verdict = await judge(statusCodes, [
      exchange({ status: 422, intent: 'invalid', path: '/pets?limit=0', body: '{"code":"x","message":"y","status":422}' }),
      exchange({ status: 500, operationId: 'createPet', method: 'POST', intent: 'invalid', body: '{"code":"x","message":"y","status":500}' }),
    ]);
    expect(verdict.listPets!.status).toBe('passed');
    expect(verdict.createPet!.findings[0]!.message).toMatch(/answered 500, a server error/);
  });

  it('skips what it never saw, rather than passing it', async () => {
    expect((await judge(statusCodes, [])).getPet).toMatchObject({ status: 'skipped' });
  });
});
