import { afterEach, describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { openMock, type Mock } from './openMock.ts';

let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const key = { authorization: 'Bearer demo-pro' };

describe('openMock, the mock without any host', () => {
  it('answers a WHATWG Request with a Response, as the HTTP server would', async () => {
    mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 5 }) });
    const page = await mock.handle(new Request('http://mock.test/v1/pets?limit=2', { headers: key }));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-ratelimit-remaining')).toBe('299');
    expect(await page.json()).toHaveLength(2);
    const created = await mock.handle(new Request('http://mock.test/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) }));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/v1/pets/6');
    const refused = await mock.handle(new Request('http://mock.test/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"name":' }));
    expect(await refused.json()).toMatchObject({ code: 'MALFORMED_JSON', status: 400 });
  });

  it('gives an in-memory read and a create whose body is at hand at once, as answer() gives them, and a streamed body\'s answer as a promise', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 5 }), clock });
    const read = mock.answerNow({ method: 'GET', url: '/v1/pets/2', headers: key });
    expect(read).not.toBeInstanceOf(Promise);
    const viaPromise = await mock.answer({ method: 'GET', url: '/v1/pets/2', headers: key });
    // The same answer but for what the second request changed: the window's remaining count.
    expect(read).toEqual({ ...viaPromise, headers: { ...viaPromise.headers, 'x-ratelimit-remaining': '299' } });
    const body = new TextEncoder().encode('{"name":"Rex","categoryId":1}');
    const headers = { ...key, 'content-type': 'application/json', 'content-length': String(body.length) };
    const created = mock.answerNow({ method: 'POST', url: '/v1/pets', headers, body });
    expect(created).not.toBeInstanceOf(Promise);
    expect(created).toMatchObject({ status: 201, headers: { location: '/v1/pets/6' } });
    const streamed = mock.answerNow({ method: 'POST', url: '/v1/pets', headers, readBody: () => Promise.resolve(body) });
    expect(streamed).toBeInstanceOf(Promise);
    expect(await streamed).toMatchObject({ status: 201, headers: { location: '/v1/pets/7' } });
    const log = await mock.state.log.recorded();
    expect(log.map((entry) => entry.status)).toEqual([200, 200, 201, 201]);
  });

  it('stamps a WHATWG Request with the mock\'s clock as it is handed over, before its body arrives (the client report\'s arrivedAt)', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    const handedAt = clock.now();
    mock = await openMock({ spec: await testSpec(), pets: [], clock });
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) });
    const answered = mock.handle(new Request('http://mock.test/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit));
    clock.advance(5000);
    push.enqueue(new TextEncoder().encode('{"name":"Rex","categoryId":1}'));
    push.close();
    expect((await answered).status).toBe(201);
    const [entry] = await mock.state.log.recorded();
    expect(entry?.grade?.arrivedAt).toBe(handedAt);
  });

  it('answers a fault rule\'s reset with a network error', async () => {
    mock = await openMock({ spec: await testSpec(), pets: [] });
    const rule = await mock.handle(new Request('http://mock.test/__mock/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operationId: 'listPets', action: 'reset' }) }));
    expect(rule.status).toBe(201);
    expect((await mock.handle(new Request('http://mock.test/v1/pets', { headers: key }))).type).toBe('error');
  });

  it('reloads new fixtures around the same state: counters and created pets carried over', async () => {
    const spec = await testSpec();
    mock = await openMock({ spec, pets: generatePets({ count: 2 }) });
    await mock.answer({ method: 'POST', url: '/v1/pets', headers: { ...key, 'content-type': 'application/json' }, body: new TextEncoder().encode('{"name":"Kept","categoryId":1}') });
    const { dropped, specChanged } = await mock.reload({ spec, fixtures: generatePets({ count: 2, seed: 7 }), keep: () => true });
    expect({ dropped, specChanged }).toEqual({ dropped: 0, specChanged: false });
    expect(await mock.state.store.count()).toBe(3);
    const page = await mock.answer({ method: 'GET', url: '/v1/pets', headers: key });
    expect(page.headers['x-ratelimit-remaining']).toBe('298');
  });
});
