import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const control = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  mock.app.inject({ method, url: `/__mock${url}`, ...(payload !== undefined ? { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } } : {}) });
const listed = async () => (await control('GET', '/faults')).json().faults as { id: string }[];

describe('POST /__mock/faults', () => {
  it('adds a rule with 201, its id and its counts, showing the key redacted', async () => {
    const res = await control('POST', '/faults', { operationId: 'createPet', method: 'post', key: 'demo-pro', status: 503, times: 3, retryAfter: 10 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: 'fault-1', operationId: 'createPet', method: 'POST', key: 'demo…(8)', status: 503, times: 3, retryAfter: 10, fired: 0, left: 3 });
    expect(res.body).not.toContain('demo-pro');
    expect((await control('POST', '/faults', { action: 'stall', stallMs: 5000 })).json()).toEqual({ id: 'fault-2', action: 'stall', stallMs: 5000, fired: 0, left: null, holding: 0 });
  });

  it.each([
    [{ status: 418 }, /status 418 is not one a fault answers with\. Use one of 400, 401, 404, 408, 429, 500, 502, 503, 504/],
    [{ status: '503' }, /status "503" is not one a fault answers with/],
    [{}, /neither what to answer \(status\) nor what to do \(action\)/],
    [{ action: 'explode' }, /action "explode" is not one the mock knows\. Use "reset"/],
    [{ action: 'reset', status: 500 }, /action "reset" gives no answer, so status 500 would never be sent/],
    [{ status: 500, stallMs: 10 }, /stallMs 10 is only for action "stall"/],
    [{ action: 'stall', stallMs: 0 }, /stallMs 0 is not a whole number from 1 to 3600000/],
    [{ operationId: 'deletePet', status: 500 }, /operationId "deletePet" is not an operation of the API\. Use one of listPets, createPet, getPet/],
    [{ operationId: 'createPet', method: 'GET', status: 500 }, /method "GET" never matches operationId "createPet", which is POST \/v1\/pets/],
    [{ method: 'PATCH', status: 500 }, /method "PATCH" is not one the API serves\. Use one of GET, POST, HEAD/],
    [{ path: '/pets', status: 500 }, /path "\/pets" is not under \/v1, where the API is.*Give a path such as \/v1\/pets/],
    [{ path: '/v1/*/pets', status: 500 }, /path "\/v1\/\*\/pets" is not a path .* with \* only at its end/],
    [{ key: 'bad key!', status: 500 }, /key bad …\(8\) is not an API key/],
    [{ status: 500, times: 0 }, /times 0 is not a whole number from 1 to 1000000/],
    [{ status: 500, times: 2.5 }, /times 2\.5 is not a whole number/],
    [{ status: 500, probability: 0 }, /probability 0 is not a number above 0 and at most 1/],
    [{ status: 500, probability: 1.5 }, /probability 1\.5 is not a number above 0/],
    [{ status: 500, seed: 3 }, /seed 3 only seeds the draws of a probability, and none is given/],
    [{ status: 500, probability: 0.5, seed: -1 }, /seed -1 is not a whole number from 0 to 4294967295/],
    [{ status: 500, retryAfter: 5 }, /retryAfter 5 goes with a 429 or a 503 .* and the status is 500/],
    [{ status: 503, retryAfter: 0 }, /retryAfter 0 is not a whole number from 1 to 86400/],
    [{ status: 500, delay: 5 }, /it has no field "delay"\. Use only operationId, method, path, key, status, action, stallMs, times, probability, seed, retryAfter/],
    [[{ status: 500 }], /the body is \[\{"status":500\}\], not a JSON object/],
  ] as const)('refuses %j with 400 naming the field and the value, adding nothing', async (rule, message) => {
    const res = await control('POST', '/faults', rule);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'INVALID_CONTROL_REQUEST', status: 400, message: expect.stringMatching(message) });
    expect(res.json().message).toMatch(/^Cannot add the fault rule: .*; nothing was added\.$/);
    expect(await listed()).toEqual([]);
  });

  it('refuses a request without a body, and one that is not JSON', async () => {
    expect((await mock.app.inject({ method: 'POST', url: '/__mock/faults' })).json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', message: expect.stringMatching(/it has no body/) });
    expect((await mock.app.inject({ method: 'POST', url: '/__mock/faults', headers: { 'content-type': 'application/json' }, payload: '{' })).json().code).toBe('MALFORMED_JSON');
  });

  it('holds at most 100 rules, and says how to make room', async () => {
    for (let i = 0; i < 100; i++) expect((await control('POST', '/faults', { status: 500 })).statusCode).toBe(201);
    const res = await control('POST', '/faults', { status: 500 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/already holds 100 rules.*DELETE \/__mock\/faults/);
  });
});

describe('listing and removing fault rules', () => {
  it('lists the rules in the order they were added, removes one, then clears the rest', async () => {
    for (const status of [500, 502, 503]) await control('POST', '/faults', { status });
    expect((await listed()).map((f) => f.id)).toEqual(['fault-1', 'fault-2', 'fault-3']);
    expect((await control('DELETE', '/faults/fault-2')).statusCode).toBe(204);
    expect((await listed()).map((f) => f.id)).toEqual(['fault-1', 'fault-3']);
    expect((await control('DELETE', '/faults')).statusCode).toBe(204);
    expect(await listed()).toEqual([]);
  });

  it('answers 404 FAULT_NOT_FOUND for a rule it does not have', async () => {
    const res = await control('DELETE', '/faults/fault-9');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'FAULT_NOT_FOUND', status: 404, message: expect.stringMatching(/no fault rule "fault-9".*GET \/__mock\/faults/) });
  });

  it('clears them on reset, and never gives an old id to a new rule', async () => {
    await control('POST', '/faults', { status: 500 });
    await control('POST', '/reset');
    expect(await listed()).toEqual([]);
    expect((await mock.call({ url: '/v1/pets?limit=1' })).statusCode).toBe(200);
    expect((await control('POST', '/faults', { status: 500 })).json().id).toBe('fault-2');
  });

  it('names /faults among the control routes when a route is unknown', async () => {
    expect((await control('GET', '/fault')).json().message).toMatch(/\/pets and \/faults under \/__mock/);
  });
});
