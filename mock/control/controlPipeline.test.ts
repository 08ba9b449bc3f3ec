import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const control = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  mock.app.inject({ method, url: `/__mock${url}`, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe('the control API', () => {
  it('needs no key and spends no quota', async () => {
    for (let i = 0; i < 70; i++) expect((await control('GET', '/clock')).statusCode).toBe(200);
    const res = await mock.call({ url: '/v1/pets', key: 'demo-free' });
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
    expect((await control('GET', '/requests')).json().requests).toHaveLength(1);
  });

  it('is absent with control turned off', async () => {
    await mock.app.close();
    mock = await testMock({ control: false });
    const res = await mock.call({ method: 'POST', url: '/__mock/reset' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404 });
  });

  it.each([
    ['GET', '/reset', 'POST, OPTIONS'],
    ['PATCH', '/keys/abc', 'PUT, DELETE, OPTIONS'],
    ['POST', '/pets', 'GET, HEAD, PUT, OPTIONS'],
    ['PUT', '/faults/fault-1', 'DELETE, OPTIONS'],
  ])('answers %s on /__mock%s, a path it serves with other methods, 405 with Allow: %s and an Error body, changing nothing', async (method, url, allow) => {
    const res = await mock.app.inject({ method: method as 'GET', url: `/__mock${url}`, payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405, message: `${method} is not allowed on /__mock${url}. Use ${allow}.` });
    expect((await control('GET', '/pets')).json()).toHaveLength(60);
  });

  describe('POST /__mock/reset', () => {
    it('brings back the fixtures, clears counters, bans, the log, added keys and the clock', async () => {
      await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Extra', categoryId: 1 } });
      await control('PUT', '/keys/temp-key', { plan: 'pro' });
      for (let i = 0; i < 61; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
      await control('POST', '/clock', { advanceSeconds: 5, freeze: true });

      const res = await control('POST', '/reset');
      expect(res.statusCode).toBe(200);
      // Ids are never reissued: the pet created before the reset keeps its id to itself.
      expect(res.json()).toMatchObject({ pets: 60, nextId: 62 });
      expect((await mock.call({ url: '/v1/pets/61' })).statusCode).toBe(404);
      expect((await mock.call({ url: '/v1/pets', key: 'temp-key' })).statusCode).toBe(401);
      expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).headers['x-ratelimit-remaining']).toBe('59');
      expect((await control('GET', '/clock')).json()).toMatchObject({ frozen: false, offsetSeconds: 0 });
      expect((await control('GET', '/requests')).json().requests.map((r: { key: string }) => r.key)).toEqual(['demo…(15)', null, 'demo…(9)']);
    });

    it('takes an empty body with Content-Type: application/json as no body, as curl -H sends it', async () => {
      const res = await mock.app.inject({ method: 'POST', url: '/__mock/reset', headers: { 'content-type': 'application/json' }, payload: '' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ pets: 60 });
    });

    it('still says what a route that needs a body lacks when it is empty', async () => {
      const res = await mock.app.inject({ method: 'POST', url: '/__mock/clock', headers: { 'content-type': 'application/json' }, payload: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', message: expect.stringMatching(/body/) });
    });
  });

  describe('/__mock/requests', () => {
    it('records time, method, path, query, status and the key redacted, newest last', async () => {
      await mock.call({ url: '/v1/pets?limit=2&status=sold', key: 'demo-pro' });
      await mock.call({ url: '/v1/pets/9999', key: 'demo-pro' });
      await mock.call({ method: 'POST', url: '/v1/pets', key: null, payload: {} });
      const { requests } = (await control('GET', '/requests')).json();
      expect(requests).toEqual([
        { time: '2026-06-01T12:30:00.000Z', method: 'GET', path: '/v1/pets', query: { limit: '2', status: 'sold' }, status: 200, key: 'demo…(8)', ms: expect.any(Number), client: '127.0.0.1', runId: null },
        expect.objectContaining({ method: 'GET', path: '/v1/pets/9999', status: 404 }),
        expect.objectContaining({ method: 'POST', path: '/v1/pets', status: 401, key: null }),
      ]);
      expect(JSON.stringify(requests)).not.toContain('demo-pro');
    });

    it('filters by method, path and status', async () => {
      await mock.call({ url: '/v1/pets' });
      await mock.call({ url: '/v1/pets/1' });
      await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'A', categoryId: 1 } });
      await mock.call({ url: '/v1/pets/9999' });
      const paths = async (query: string) => (await control('GET', `/requests?${query}`)).json().requests.map((r: { method: string; path: string }) => `${r.method} ${r.path}`);
      expect(await paths('method=POST')).toEqual(['POST /v1/pets']);
      expect(await paths('path=/v1/pets')).toEqual(['GET /v1/pets', 'POST /v1/pets']);
      expect(await paths('path=/v1/pets/*')).toEqual(['GET /v1/pets/1', 'GET /v1/pets/9999']);
      expect(await paths('status=404')).toEqual(['GET /v1/pets/9999']);
      expect(await paths('status=2xx&method=GET')).toEqual(['GET /v1/pets', 'GET /v1/pets/1']);
    });

    it('lists requests whose paths are odd', async () => {
      await mock.call({ url: '//a:b' });
      const res = await control('GET', '/requests');
      expect(res.statusCode).toBe(200);
      expect(res.json().requests.at(-1)).toMatchObject({ path: '//a:b' });
    });

    it('answers 400 for a bad filter', async () => {
      const res = await control('GET', '/requests?status=abc');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400 });
    });

    it('records each request\'s client address and X-Conformance-Run-Id, and finds one run\'s requests by runId, with the other filters', async () => {
      const run = (runId: string) => ({ 'x-conformance-run-id': runId });
      await mock.call({ url: '/v1/pets', headers: run('run-a') });
      await mock.call({ url: '/v1/pets/9999', headers: run('run-b') });
      await mock.call({ url: '/v1/pets/9999', headers: run('run-a') });
      await mock.call({ url: '/v1/pets' });
      const list = async (query: string) => (await control('GET', `/requests?${query}`)).json().requests as { path: string; status: number; runId: string | null; client: string }[];
      expect((await list('runId=run-a')).map((r) => [r.path, r.status, r.runId, r.client])).toEqual([['/v1/pets', 200, 'run-a', '127.0.0.1'], ['/v1/pets/9999', 404, 'run-a', '127.0.0.1']]);
      expect((await list('runId=run-a&status=4xx')).map((r) => r.path)).toEqual(['/v1/pets/9999']);
      expect((await list('runId=run-b&path=/v1/pets')).map((r) => r.path)).toEqual([]);
      expect((await list('')).map((r) => r.runId)).toEqual(['run-a', 'run-b', 'run-a', null]);
      // An in-memory mock is one replica: its entries name none.
      expect((await list(''))[0]).not.toHaveProperty('replica');
    });

    it('records the address X-Forwarded-For gives behind a trusted proxy, and keeps a long run id\'s first 128 characters', async () => {
      await mock.app.close();
      mock = await testMock({ trustProxy: 1 });
      const long = 'r'.repeat(300);
      await mock.call({ url: '/v1/pets', headers: { 'x-forwarded-for': '203.0.113.9', 'x-conformance-run-id': long } });
      const [entry] = (await control('GET', '/requests')).json().requests;
      expect(entry).toMatchObject({ client: '203.0.113.9', runId: 'r'.repeat(128) });
      expect((await control('GET', `/requests?runId=${'r'.repeat(128)}`)).json().requests).toHaveLength(1);
    });

    it.each([
      ['runId=', /runId is empty\. Give the X-Conformance-Run-Id of the run/],
      [`runId=${'x'.repeat(129)}`, /runId "x{64}…" has 129 characters; the log keeps the first 128 of a run id\. Give at most 128\./],
      ['runId=a&runId=b', /runId is given 2 times \("a", "b"\)\. Give it once\./],
      ['status=abc', /status "abc" is neither a status nor a class of them\. Give one such as 404 or 4xx, or 0 for the requests left unanswered\./],
      ['status=00', /status "00" is neither a status nor a class of them/],
      ['method=G%20T', /method "G T" is not an HTTP method\. Give one such as GET or POST\./],
      ['run=x', /it has no filter "run"\. Filter by method, path, status, runId\./],
    ])('refuses the filter %s with a 400 naming the value and what to give', async (query, message) => {
      const res = await control('GET', `/requests?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400, message: expect.stringMatching(/^Cannot filter the request log: /) });
      expect(res.json().message).toMatch(message);
    });

    it('stays bounded and says how many it dropped', async () => {
      await mock.app.close();
      mock = await testMock({ requestLogSize: 3 });
      for (let i = 1; i <= 5; i++) await mock.call({ url: `/v1/pets/${i}` });
      const body = (await control('GET', '/requests')).json();
      expect(body.requests.map((r: { path: string }) => r.path)).toEqual(['/v1/pets/3', '/v1/pets/4', '/v1/pets/5']);
      expect(body).toMatchObject({ dropped: 2, capacity: 3 });
    });

    it('empties on DELETE', async () => {
      await mock.call({ url: '/v1/pets' });
      expect((await control('DELETE', '/requests')).statusCode).toBe(204);
      expect((await control('GET', '/requests')).json().requests).toEqual([]);
    });
  });

  describe('/__mock/clock', () => {
    it('shows the mock\'s time', async () => {
      expect((await control('GET', '/clock')).json()).toEqual({ now: '2026-06-01T12:30:00.000Z', nowMs: Date.UTC(2026, 5, 1, 12, 30), frozen: false, offsetSeconds: 0 });
    });

    it('lifts a 429 when advanced past the window, and moves X-RateLimit-Reset with it', async () => {
      for (let i = 0; i < 60; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
      const refused = await mock.call({ url: '/v1/pets', key: 'demo-free' });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect((await control('POST', '/clock', { advanceSeconds: 60 })).json()).toMatchObject({ offsetSeconds: 60 });
      const again = await mock.call({ url: '/v1/pets', key: 'demo-free' });
      expect(again.statusCode).toBe(200);
      expect(Number(again.headers['x-ratelimit-reset'])).toBe(Date.UTC(2026, 5, 1, 12, 32) / 1000);
    });

    it('ends a ban when advanced past it', async () => {
      await mock.app.close();
      mock = await testMock({ ban: { threshold: 2, seconds: 600 } });
      for (let i = 0; i < 62; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
      expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).json().code).toBe('API_KEY_BANNED');
      await control('POST', '/clock', { advanceSeconds: 601 });
      expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).statusCode).toBe(200);
    });

    it('freezes and thaws', async () => {
      expect((await control('POST', '/clock', { freeze: true })).json().frozen).toBe(true);
      mock.clock.advance(10_000);
      expect((await control('GET', '/clock')).json().nowMs).toBe(Date.UTC(2026, 5, 1, 12, 30));
      expect((await control('POST', '/clock', { freeze: false })).json().frozen).toBe(false);
      mock.clock.advance(1000);
      expect((await control('GET', '/clock')).json().nowMs).toBe(Date.UTC(2026, 5, 1, 12, 30, 1));
    });

    it.each([
      ['an ISO date-time', '2026-06-01T12:30:45Z'],
      ['an ISO date-time with an offset', '2026-06-01T14:30:45+02:00'],
      ['Unix milliseconds', Date.UTC(2026, 5, 1, 12, 30, 45)],
      ['Unix milliseconds as text', String(Date.UTC(2026, 5, 1, 12, 30, 45))],
    ])('freezes at an instant given as %s, so Retry-After is known in advance', async (_, at) => {
      expect((await control('POST', '/clock', { freeze: true, at })).json()).toMatchObject({ now: '2026-06-01T12:30:45.000Z', frozen: true });
      mock.clock.advance(10_000);
      await control('PUT', '/keys/one', { plan: 'free', perMinute: 1 });
      await mock.call({ url: '/v1/pets', key: 'one' });
      const throttled = await mock.call({ url: '/v1/pets', key: 'one' });
      expect(throttled.headers['retry-after']).toBe('15');
      expect(throttled.headers['x-ratelimit-reset']).toBe(String(Date.UTC(2026, 5, 1, 12, 31) / 1000));
    });

    it('freezes at a date, midnight UTC, and runs on from the instant when thawed', async () => {
      expect((await control('POST', '/clock', { freeze: true, at: '2027-01-01' })).json().now).toBe('2027-01-01T00:00:00.000Z');
      expect((await control('POST', '/clock', { freeze: false })).json()).toMatchObject({ frozen: false, now: '2027-01-01T00:00:00.000Z' });
      mock.clock.advance(1000);
      expect((await control('GET', '/clock')).json().now).toBe('2027-01-01T00:00:01.000Z');
    });

    it.each([
      [{ freeze: true, at: 'next tuesday' }, 'Cannot freeze the clock at "next tuesday": it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").'],
      [{ freeze: true, at: '2026-06-01T12:30:45' }, 'Cannot freeze the clock at "2026-06-01T12:30:45": it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").'],
      [{ freeze: true, at: '2026-02-30' }, 'Cannot freeze the clock at "2026-02-30": it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").'],
      [{ freeze: true, at: 1.5 }, 'Cannot freeze the clock at 1.5: it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").'],
      [{ freeze: true, at: true }, 'Cannot freeze the clock at true: it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").'],
      [{ freeze: true, at: '2200-01-01T00:00:00Z' }, 'Cannot freeze the clock at "2200-01-01T00:00:00Z": 2200-01-01T00:00:00.000Z is 5477801400 seconds ahead of the system clock, and at most 3153600000 seconds (100 years) are allowed. Give an earlier instant.'],
      [{ freeze: true, at: -1 }, 'Cannot freeze the clock at -1: 1969-12-31T23:59:59.999Z is before 1970-01-01T00:00:00Z, where X-RateLimit-Reset (a Unix time) would turn negative. Give a later instant.'],
      [{ at: '2026-06-01T12:30:45Z' }, 'Cannot freeze the clock at "2026-06-01T12:30:45Z": "at" needs "freeze": true beside it. Send {"freeze": true, "at": "2026-06-01T12:30:45Z"}.'],
      [{ freeze: true, at: '2026-06-01T12:30:45Z', advanceSeconds: 5 }, 'Cannot freeze the clock at "2026-06-01T12:30:45Z" and advance it by 5 seconds in one call. Freeze it at the instant you want, without "advanceSeconds".'],
    ])('refuses %j with 400, naming the value, and changes nothing', async (body, message) => {
      await control('POST', '/clock', { advanceSeconds: 30 });
      const res = await control('POST', '/clock', { ...body, reset: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'INVALID_CONTROL_REQUEST', status: 400, message });
      expect((await control('GET', '/clock')).json()).toMatchObject({ offsetSeconds: 30, frozen: false });
    });

    it.each([[{}], [{ advanceSeconds: -5 }], [{ advanceSeconds: '60' }], [{ advanceSeconds: 1e300 }], [{ freeze: 'yes' }], [{ rewind: 1 }]])('answers 400 for %j', async (body) => {
      const res = await control('POST', '/clock', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400 });
    });
  });

  describe('/__mock/keys', () => {
    it('creates a key with its plan\'s limits', async () => {
      const res = await control('PUT', '/keys/team-a', { plan: 'business' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ key: 'team-a', plan: 'business', limits: { perMinute: 1000, perDay: 100000 } });
      const call = await mock.call({ url: '/v1/pets', key: 'team-a' });
      expect(call.statusCode).toBe(200);
      expect(call.headers['x-ratelimit-limit']).toBe('1000');
    });

    it('changes a key, with custom limits', async () => {
      const res = await control('PUT', '/keys/demo-free', { plan: 'free', perMinute: 2 });
      expect(res.statusCode).toBe(200);
      await mock.call({ url: '/v1/pets', key: 'demo-free' });
      await mock.call({ url: '/v1/pets', key: 'demo-free' });
      expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).statusCode).toBe(429);
    });

    it('removes a key', async () => {
      expect((await control('DELETE', '/keys/demo-pro')).statusCode).toBe(204);
      expect((await mock.call({ url: '/v1/pets', key: 'demo-pro' })).statusCode).toBe(401);
      const again = await control('DELETE', '/keys/demo-pro');
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'KEY_NOT_FOUND', status: 404 });
    });

    it.each([[{ plan: 'gold' }], [{}], [{ plan: 'pro', perMinute: 0 }], [{ plan: 'pro', perDay: 1.5 }]])('answers 400 for %j', async (body) => {
      const res = await control('PUT', '/keys/x', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST' });
    });
  });

  describe('/__mock/pets', () => {
    it('replaces the data set and keeps ids growing', async () => {
      const res = await control('PUT', '/pets', [{ id: 5, name: 'Solo', categoryId: 2, status: 'pending' }]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ pets: 1, nextId: 61 });
      expect((await mock.call({ url: '/v1/pets' })).json()).toEqual([{ id: 5, name: 'Solo', categoryId: 2, status: 'pending' }]);
      expect((await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'New', categoryId: 1 } })).json().id).toBe(61);
      expect((await control('GET', '/pets')).json()).toHaveLength(2);
    });

    it('keeps every categoryId within int64 exactly through PUT and GET, and refuses one past it', async () => {
      const putText = (body: string) => mock.app.inject({ method: 'PUT', url: '/__mock/pets', payload: body, headers: { 'content-type': 'application/json' } });
      const text = '[{"id":5,"name":"Big","categoryId":9223372036854775807},{"id":6,"name":"Low","categoryId":-9007199254740993,"status":"sold"}]';
      expect((await putText(text)).statusCode).toBe(200);
      expect((await control('GET', '/pets')).body).toBe(text);
      expect((await mock.call({ url: '/v1/pets' })).body).toBe('[{"id":6,"name":"Low","categoryId":-9007199254740993,"status":"sold"},{"id":5,"name":"Big","categoryId":9223372036854775807}]');
      const past = await putText('[{"id":7,"name":"Past","categoryId":9223372036854775808}]');
      expect([past.statusCode, past.json().message]).toEqual([400, expect.stringContaining('pets[0].categoryId must be a whole number from -9223372036854775808 to 9223372036854775807 (int64)')]);
    });

    it.each([
      [[{ id: 1, name: 'A', categoryId: 1 }, { id: 2, name: 'B' }], /pets\[1\]\.categoryId is required/],
      [[{ id: 1, name: 'A', categoryId: 1, status: 'lost' }], /pets\[0\]\.status must be one of/],
      [[{ id: '1', name: 'A', categoryId: 1 }], /pets\[0\]\.id must be a whole number/],
      [{ id: 1 }, /pets must be a JSON array/],
      [[{ id: 3, name: 'A', categoryId: 1 }, { id: 3, name: 'B', categoryId: 1 }], /pets\[1\] has the id 3 of pets\[0\]/],
    ])('refuses %j with a 400 naming the bad item, and changes nothing', async (body, message) => {
      const res = await control('PUT', '/pets', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400, message: expect.stringMatching(message) });
      expect(await mock.app.mock.store.count()).toBe(60);
    });
  });

  describe('bounds', () => {
    it('refuses pets whose ids leave no room for the next id below 2^53, and keeps the pets it has', async () => {
      for (const id of [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1 + 1]) {
        const res = await control('PUT', '/pets', [{ id, name: 'Edge', categoryId: 1 }]);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400, message: expect.stringContaining('2^53 - 1') });
      }
      expect(await mock.app.mock.store.count()).toBe(60);
      const created = await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Next', categoryId: 1 } });
      expect(created.json().id).toBe(61);
    });

    it('accepts the highest id that leaves room, and hands out the last safe id once, then refuses', async () => {
      expect((await control('PUT', '/pets', [{ id: Number.MAX_SAFE_INTEGER - 1, name: 'Edge', categoryId: 1 }])).statusCode).toBe(200);
      const last = await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Last', categoryId: 1 } });
      expect(last.json().id).toBe(Number.MAX_SAFE_INTEGER);
      const refused = await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Past', categoryId: 1 } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'IDS_EXHAUSTED', status: 409, message: expect.stringContaining('every id') });
      const ids = (await mock.call({ url: '/v1/pets?limit=100' })).json().map((p: { id: number }) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('refuses to move the clock more than 100 years ahead, changing nothing, and keeps answering', async () => {
      let refused;
      for (let i = 0; i < 12 && !refused; i++) {
        const res = await control('POST', '/clock', { advanceSeconds: 315_360_000 });
        if (res.statusCode !== 200) refused = res;
      }
      expect(refused?.statusCode).toBe(400);
      expect(refused?.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', message: expect.stringContaining('100 years') });
      const clock = await control('GET', '/clock');
      expect(clock.statusCode).toBe(200);
      expect(clock.json().offsetSeconds).toBeLessThanOrEqual(100 * 365 * 86_400);
      expect((await mock.call({ url: '/v1/pets' })).statusCode).toBe(200);
      expect((await control('GET', '/requests')).statusCode).toBe(200);
      expect((await control('POST', '/clock', { reset: true })).json()).toMatchObject({ offsetSeconds: 0 });
    });

    it.each([1e308, 1_000_000_001, 0, 1.5])('refuses a key limit of %s, which is not a whole number from 1 to 1,000,000,000', async (perMinute) => {
      const res = await control('PUT', '/keys/huge', { plan: 'pro', perMinute });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400 });
      expect((await mock.call({ url: '/v1/pets', key: 'huge' })).statusCode).toBe(401);
    });

    it('accepts a key name of 256 characters and refuses one of 257 as INVALID_CONTROL_REQUEST', async () => {
      const longest = 'k'.repeat(256);
      expect((await control('PUT', `/keys/${longest}`, { plan: 'pro' })).statusCode).toBe(201);
      expect((await mock.call({ url: '/v1/pets', key: longest })).statusCode).toBe(200);
      const tooLong = await control('PUT', `/keys/${'k'.repeat(257)}`, { plan: 'pro' });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400 });
    });

    it('answers an empty or __proto__ body with INVALID_CONTROL_REQUEST, never a NewPet hint', async () => {
      const empty = await mock.app.inject({ method: 'POST', url: '/__mock/clock', headers: { 'content-type': 'application/json' }, payload: '' });
      const proto = await mock.app.inject({ method: 'POST', url: '/__mock/clock', headers: { 'content-type': 'application/json' }, payload: '{"advanceSeconds":1,"__proto__":{"x":1}}' });
      for (const res of [empty, proto]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400 });
        expect(res.json().message).not.toMatch(/NewPet|categoryId/);
      }
    });

    it('keeps request-log entries bounded however long the URL', async () => {
      await mock.call({ url: `/v1/pets?limit=1&pad=${'x'.repeat(10_000)}` });
      const [entry] = (await control('GET', '/requests')).json().requests;
      expect(JSON.stringify(entry).length).toBeLessThan(3000);
    });
  });
});
