import { afterEach, describe, expect, it } from 'vitest';
import { openInProcessMock } from './inProcessMock.ts';
import type { PetsMockHost } from './petsMockHost.ts';
import { buildMock } from '../buildMock.ts';
import { testSpec } from '../testing.ts';
import { createPetsMockControl, MockControlError } from './petsMockControl.ts';
import { coreControlSend } from './hostOnCore.ts';

let core: PetsMockHost;
afterEach(() => core?.close());

const get = (path: string, key = 'demo-pro') => core.handle({ method: 'GET', url: `${core.address.baseUrl}${path}`, headers: { authorization: `Bearer ${key}` } });
const json = (res: { body: Uint8Array | null }) => JSON.parse(Buffer.from(res.body!).toString());

describe('the control handle', () => {
  it('replaces and lists pets, and refuses a bad set naming the item, changing nothing', async () => {
    core = await openInProcessMock({ pets: [] });
    await core.control.setPets([{ id: 5, name: 'Rex', categoryId: 1, status: 'sold' }]);
    expect(await core.control.pets()).toEqual([{ id: 5, name: 'Rex', categoryId: 1, status: 'sold' }]);
    const error = await core.control.setPets([{ id: 6, name: 'Tom' } as never]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockControlError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_CONTROL_REQUEST', message: expect.stringMatching(/^Cannot replace the pets: .*pets\[0\]\.categoryId/) });
    expect((error as Error).message.match(/Cannot replace the pets/g)).toHaveLength(1);
    expect(await core.control.pets()).toHaveLength(1);
  });

  it('takes and gives a categoryId past 2^53 - 1 as a BigInt, served with its digits', async () => {
    core = await openInProcessMock({ pets: [] });
    await core.control.setPets([{ id: 5, name: 'Big', categoryId: 9223372036854775807n }]);
    expect(await core.control.pets()).toEqual([{ id: 5, name: 'Big', categoryId: 9223372036854775807n }]);
    expect(Buffer.from((await get('/pets/5')).body!).toString()).toBe('{"id":5,"name":"Big","categoryId":9223372036854775807}');
  });

  it('adds, changes and deletes keys, and refuses an unknown plan or key', async () => {
    core = await openInProcessMock();
    await core.control.setKey('team-key', { plan: 'pro', perMinute: 2 });
    expect((await get('/pets?limit=1', 'team-key')).headers['x-ratelimit-limit']).toBe('2');
    await expect(core.control.setKey('team-key', { plan: 'gold' as never })).rejects.toThrow(/^Cannot set the API key "team-key": .*plan must be one of free, pro, business, enterprise/);
    await core.control.deleteKey('team-key');
    expect((await get('/pets', 'team-key')).status).toBe(401);
    await expect(core.control.deleteKey('team-key')).rejects.toMatchObject({ status: 404, code: 'KEY_NOT_FOUND' });
  });

  it('moves, freezes and unfreezes the clock, and refuses a backward move', async () => {
    core = await openInProcessMock();
    const frozen = await core.control.freezeClock();
    expect(frozen.frozen).toBe(true);
    expect((await core.control.advanceClock(90)).nowMs).toBe(frozen.nowMs + 90_000);
    expect((await core.control.clock()).nowMs).toBe(frozen.nowMs + 90_000);
    await expect(core.control.advanceClock(-5)).rejects.toThrow(/^Cannot advance the clock by -5 seconds: .*advanceSeconds/);
    await expect(core.control.advanceClock(Number.NaN)).rejects.toBeInstanceOf(MockControlError);
    expect((await core.control.unfreezeClock()).frozen).toBe(false);
  });

  it('freezes the clock at an instant given as a Date, Unix milliseconds or ISO text, and refuses one that is not', async () => {
    core = await openInProcessMock();
    const at = new Date('2026-06-01T12:30:45Z');
    expect(await core.control.freezeClock(at)).toMatchObject({ now: '2026-06-01T12:30:45.000Z', nowMs: at.getTime(), frozen: true });
    expect((await core.control.freezeClock(at.getTime() + 1000)).now).toBe('2026-06-01T12:30:46.000Z');
    expect((await core.control.freezeClock('2026-06-01T12:30:47Z')).now).toBe('2026-06-01T12:30:47.000Z');
    const invalid = await core.control.freezeClock(new Date('not a date')).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(MockControlError);
    expect((invalid as Error).message).toBe('Cannot freeze the clock at "Invalid Date": it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").');
    await expect(core.control.freezeClock('tomorrow')).rejects.toMatchObject({ status: 400, code: 'INVALID_CONTROL_REQUEST', message: expect.stringMatching(/^Cannot freeze the clock at "tomorrow": it is not an instant/) });
    expect((await core.control.clock()).now).toBe('2026-06-01T12:30:47.000Z');
  });

  it('lists requests by filter, clears them, and refuses a bad filter', async () => {
    core = await openInProcessMock();
    await get('/pets/1');
    await get('/pets/999999');
    expect((await core.control.requests()).map((r) => r.status)).toEqual([200, 404]);
    expect(await core.control.requests({ status: 404 })).toMatchObject([{ method: 'GET', path: '/v1/pets/999999', key: expect.stringMatching(/^demo/) }]);
    expect(await core.control.requests({ path: '/v1/pets/*', method: 'get' })).toHaveLength(2);
    await expect(core.control.requests({ status: '6xx' })).rejects.toMatchObject({ status: 400, code: 'INVALID_CONTROL_REQUEST' });
    await core.control.clearRequests();
    expect(await core.control.requests()).toEqual([]);
  });

  it('resets pets, keys, counters, log and clock', async () => {
    core = await openInProcessMock();
    const before = await core.control.pets();
    await core.handle({ method: 'POST', url: `${core.address.baseUrl}/pets`, headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' }, body: Buffer.from('{"name":"New","categoryId":1}') });
    await core.control.setKey('temp', { plan: 'free' });
    await core.control.advanceClock(3600);
    await core.control.reset();
    expect(await core.control.pets()).toEqual(before);
    expect((await get('/pets', 'temp')).status).toBe(401);
    expect((await get('/pets', 'demo-free')).headers['x-ratelimit-remaining']).toBe('59');
    expect(Math.abs((await core.control.clock()).offsetSeconds)).toBeLessThan(5);
  });

  it('sends the controlToken it is given on every call, so it drives a mock that requires one', async () => {
    core = await openInProcessMock({ controlToken: 'sandbox-token' });
    await core.control.setKey('team-key', { plan: 'business' });
    expect((await get('/pets?limit=1', 'team-key')).headers['x-ratelimit-limit']).toBe('1000');
    await core.control.freezeClock();
    await core.control.reset();
    expect((await core.control.clock()).frozen).toBe(false);
    expect((await core.control.requests()).map((r) => r.key)).toEqual([]);
    // The same mock over HTTP (a page's own control requests) takes only the token.
    const control = (headers: Record<string, string>) => core.handle({ method: 'GET', url: `${core.address.controlUrl}/clock`, headers });
    expect((await control({})).status).toBe(401);
    expect((await control({ authorization: 'bearer sandbox-token' })).status).toBe(200);
  });

  it('throws the 401 as a MockControlError when the mock requires a token it was not given', async () => {
    const app = await buildMock({ spec: await testSpec(), controlToken: 'sandbox-token' });
    try {
      await expect(createPetsMockControl(coreControlSend(app.petsMock)).reset()).rejects.toMatchObject({ status: 401, code: 'CONTROL_TOKEN_REQUIRED', message: expect.stringMatching(/^Cannot reset the mock: The control API needs a token/) });
      await expect(createPetsMockControl(coreControlSend(app.petsMock), { controlToken: 'wrong' }).clock()).rejects.toMatchObject({ status: 401, code: 'CONTROL_TOKEN_INVALID' });
      await expect(createPetsMockControl(coreControlSend(app.petsMock), { controlToken: 'sandbox-token' }).clock()).resolves.toMatchObject({ frozen: false });
    } finally {
      await app.close();
    }
  });
});

describe('the control handle\'s fault rules', () => {
  it('adds, lists, removes and clears fault rules, and reset clears them too', async () => {
    core = await openInProcessMock();
    const rule = await core.control.addFault({ operationId: 'getPet', status: 500, times: 2 });
    expect(rule).toEqual({ id: 'fault-1', operationId: 'getPet', status: 500, times: 2, fired: 0, left: 2 });
    expect((await get('/pets/1')).status).toBe(500);
    expect(json(await get('/pets/1'))).toMatchObject({ code: 'INTERNAL_ERROR', status: 500 });
    expect((await get('/pets/1')).status).toBe(200);
    expect(await core.control.faults()).toEqual([{ ...rule, fired: 2, left: 0 }]);
    await core.control.removeFault(rule.id);
    await expect(core.control.removeFault(rule.id)).rejects.toMatchObject({ status: 404, code: 'FAULT_NOT_FOUND', message: expect.stringMatching(/^Cannot remove the fault rule "fault-1": /) });
    await core.control.addFault({ status: 502 });
    await core.control.clearFaults();
    expect(await core.control.faults()).toEqual([]);
    await core.control.addFault({ status: 502 });
    await core.control.reset();
    expect(await core.control.faults()).toEqual([]);
  });

  it('throws a rule the mock refuses as a MockControlError naming the field, adding nothing', async () => {
    core = await openInProcessMock();
    const error = await core.control.addFault({ status: 418 as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockControlError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_CONTROL_REQUEST', message: expect.stringMatching(/^Cannot add the fault rule: status 418 /) });
    expect(await core.control.faults()).toEqual([]);
  });

  it('rejects a request whose connection a rule resets, for the adapter to turn into its host\'s network error', async () => {
    core = await openInProcessMock();
    await core.control.addFault({ action: 'reset', times: 1 });
    await expect(get('/pets')).rejects.toMatchObject({ name: 'ConnectionResetError', code: 'ECONNRESET' });
    expect((await get('/pets')).status).toBe(200);
  });
});
