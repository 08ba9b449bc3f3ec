import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { openMock, type Mock } from '../core/openMock.ts';
import { createPetsHandlers } from '../adapters/msw.ts';

const key = { authorization: 'Bearer demo-pro' };
const removal = Date.UTC(2030, 11, 5);
const replacementLink = '</v1/pets>; rel="alternate"; title="GET /pets with the status filter"';

let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function opened(at: number) {
  mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 3 }), clock: new ManualClock(at) });
  return (path: string, init: RequestInit = {}) => mock!.handle(new Request(`http://mock.test${path}`, { ...init, headers: { ...key, ...(init.headers as Record<string, string>) } }));
}

describe('getPet before its removal (5 December 2030 on the mock\'s clock)', () => {
  it('answers with Deprecation, Sunset and a Link to the replacement, all exposed to pages', async () => {
    const send = await opened(removal - 1);
    const pet = await send('/v1/pets/1', { headers: { origin: 'http://app.test' } });
    expect(pet.status).toBe(200);
    expect(pet.headers.get('deprecation')).toBe('@1767225600');
    expect(pet.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(pet.headers.get('link')).toBe(replacementLink);
    expect(pet.headers.get('access-control-expose-headers')).toMatch(/\bDeprecation\b.*\bSunset\b.*\bLink\b/);
  });

  it('marks no other operation', async () => {
    const send = await opened(removal - 1);
    const list = await send('/v1/pets');
    expect([list.headers.get('deprecation'), list.headers.get('sunset'), list.headers.get('link')]).toEqual([null, null, null]);
  });
});

describe('getPet from its removal on', () => {
  it('answers 410 OPERATION_REMOVED naming the replacement, with the Link but no Deprecation or Sunset', async () => {
    const send = await opened(removal);
    const gone = await send('/v1/pets/1');
    expect(gone.status).toBe(410);
    const body = (await gone.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ code: 'OPERATION_REMOVED', status: 410 });
    expect(body.message).toBe('GET /pets/{petId} was removed on 2030-12-05, as its Sunset header announced. Use GET /pets with the status filter instead.');
    expect(gone.headers.get('link')).toBe(replacementLink);
    expect([gone.headers.get('deprecation'), gone.headers.get('sunset')]).toEqual([null, null]);
    expect(gone.headers.get('x-ratelimit-remaining')).toBe('299');
  });

  it('is gone whatever the id, a Prefer or an unknown pet; a request without a key is still 401 first', async () => {
    const send = await opened(removal + 86_400_000);
    expect((await send('/v1/pets/999999')).status).toBe(410);
    expect((await send('/v1/pets/abc')).status).toBe(410);
    expect((await send('/v1/pets/1', { headers: { prefer: 'code=200' } })).status).toBe(410);
    expect((await mock!.handle(new Request('http://mock.test/v1/pets/1'))).status).toBe(401);
    expect((await send('/v1/pets')).status).toBe(200);
  });

  it('is gone once the clock is moved past the removal through the control API, and back when it is moved back', async () => {
    const send = await opened(Date.UTC(2030, 11, 4, 23, 59));
    expect((await send('/v1/pets/1')).status).toBe(200);
    const moved = await mock!.handle(new Request('http://mock.test/__mock/clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 60 }) }));
    expect(moved.status).toBe(200);
    expect((await send('/v1/pets/1')).status).toBe(410);
  });
});

describe('getPet removed in MSW in Node, through the control handle', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('answers 410 once the clock is frozen on the removal day, 200 before it', async () => {
    const made = await createPetsHandlers({});
    server.resetHandlers(...made.handlers);
    await made.mock.freezeClock('2030-12-04T12:00:00Z');
    expect((await fetch('http://127.0.0.1:4010/v1/pets/1', { headers: key })).status).toBe(200);
    await made.mock.freezeClock('2030-12-05T00:00:00Z');
    const gone = await fetch('http://127.0.0.1:4010/v1/pets/1', { headers: key });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'OPERATION_REMOVED', status: 410 });
    // The client report names the use, the 410 included, with no day left.
    expect((await made.mock.clientReport()).deprecatedUse).toEqual([expect.objectContaining({ operation: 'getPet', requests: 2, last: '2030-12-05T00:00:00.000Z', daysLeft: 0, instead: 'GET /pets with the status filter' })]);
  });
});
