import { describe, expect, it } from 'vitest';
import type { ClientReport } from '../clientReport/gradeClients.ts';
import { testMock, type TestMock } from '../testing.ts';

const report = async (mock: TestMock, query = '') => {
  const res = await mock.app.inject({ url: `/__mock/client-report${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ClientReport;
};

/** Spends demo-free's minute (60): the 60th answer says nothing remains. */
async function spendMinute(mock: TestMock) {
  for (let i = 0; i < 60; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
}

describe('GET /__mock/client-report', () => {
  it('gives a client that waits out its window an empty report', async () => {
    const mock = await testMock();
    await spendMinute(mock);
    // It read Remaining 0 and Reset, and waits for the reset before the next request.
    mock.clock.advance(60_000);
    expect((await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' })).statusCode).toBe(200);
    expect(await report(mock)).toEqual({ passed: true, findings: [], deprecatedUse: [] });
  });

  it('fails a client that retries at once after a 429 and polls past its quota, naming its key and the rule', async () => {
    const mock = await testMock();
    await spendMinute(mock);
    const throttled = await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    expect(throttled.statusCode).toBe(429);
    mock.clock.advance(200);
    await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    const graded = await report(mock);
    expect(graded.passed).toBe(false);
    expect(graded.findings.map((f) => f.rule).sort()).toEqual(['client.quota', 'client.retry-after']);
    expect(graded.findings.find((f) => f.rule === 'client.retry-after')).toMatchObject({ level: 'failure', client: 'demo…(9)', quote: expect.stringContaining('Retry-After'), instead: expect.stringMatching(/^Wait until Retry-After/) });
    // Another key's report is its own.
    await mock.call({ url: '/v1/pets?limit=1', key: 'demo-pro' });
    expect(await report(mock, '?key=demo-pro')).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    expect((await report(mock, '?key=demo-free')).passed).toBe(false);
  });

  it('names requests the contract refuses and a POST sent again after a forced 503', async () => {
    const mock = await testMock();
    await mock.call({ url: '/v1/pets?limit=500' });
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const json = { 'content-type': 'application/json' };
    expect((await mock.call({ method: 'POST', url: '/v1/pets', headers: { ...json, prefer: 'code=503' }, payload: body })).statusCode).toBe(503);
    mock.clock.advance(30_000);
    await mock.call({ method: 'POST', url: '/v1/pets', headers: json, payload: body });
    await mock.call({ url: '/v1/pets', key: null, headers: { authorization: 'Token demo-pro' } });
    const graded = await report(mock);
    expect(graded.findings.map((f) => [f.rule, f.level])).toEqual(expect.arrayContaining([['client.limit-range', 'failure'], ['client.post-retry', 'warning'], ['client.bearer', 'failure']]));
  });

  it('is emptied by reset, and refuses a query it does not take', async () => {
    const mock = await testMock();
    await mock.call({ url: '/v1/pets?limit=500' });
    expect((await report(mock)).findings).toHaveLength(1);
    await mock.app.inject({ method: 'POST', url: '/__mock/reset' });
    expect(await report(mock)).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    const bad = await mock.app.inject({ url: '/__mock/client-report?client=x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400, message: expect.stringContaining('takes only key') });
  });

  it('lists each client\'s use of getPet with the days left, the 410s after the removal counted too', async () => {
    const mock = await testMock();
    // 1 June 2026 12:30 UTC: getPet twice a minute apart with demo-pro, once with demo-free.
    await mock.call({ url: '/v1/pets/1', key: 'demo-pro' });
    mock.clock.advance(60_000);
    await mock.call({ url: '/v1/pets/2', key: 'demo-pro' });
    await mock.call({ url: '/v1/pets', key: 'demo-free' });
    await mock.call({ url: '/v1/pets/1', key: 'demo-free' });
    const use = {
      operation: 'getPet', method: 'GET', path: '/pets/{petId}', removal: '2030-12-05T00:00:00.000Z', instead: 'GET /pets with the status filter',
    };
    // From 1 June 2026 12:31 to 5 December 2030 00:00: 1647 days and 11.5 hours, rounded up.
    expect((await report(mock)).deprecatedUse).toEqual([
      { client: 'demo…(8)', ...use, requests: 2, first: '2026-06-01T12:30:00.000Z', last: '2026-06-01T12:31:00.000Z', daysLeft: 1648 },
      { client: 'demo…(9)', ...use, requests: 1, first: '2026-06-01T12:31:00.000Z', last: '2026-06-01T12:31:00.000Z', daysLeft: 1648 },
    ]);
    expect((await report(mock, '?key=demo-free')).deprecatedUse).toHaveLength(1);
    mock.clock.advance(Date.UTC(2030, 11, 5) - mock.clock.now());
    expect((await mock.call({ url: '/v1/pets/1', key: 'demo-pro' })).statusCode).toBe(410);
    expect((await report(mock, '?key=demo-pro')).deprecatedUse).toEqual([
      { client: 'demo…(8)', ...use, requests: 3, first: '2026-06-01T12:30:00.000Z', last: '2030-12-05T00:00:00.000Z', daysLeft: 0 },
    ]);
  });

  it('credits a client that waits the t of the draft\'s RateLimit (ratelimitHeaders: draft), and names the field to one that does not', async () => {
    const mock = await testMock({ ratelimitHeaders: 'draft' });
    for (let i = 0; i < 59; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    const last = await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    const t = Number(/^"minute";r=0;t=(\d+)$/.exec(String(last.headers.ratelimit))![1]);
    // It reads t and waits that long: the same instant as X-RateLimit-Reset.
    mock.clock.advance(t * 1000);
    expect((await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' })).statusCode).toBe(200);
    expect(await report(mock)).toEqual({ passed: true, findings: [], deprecatedUse: [] });

    const rude = await testMock({ ratelimitHeaders: 'draft' });
    await spendMinute(rude);
    expect((await rude.call({ url: '/v1/pets?limit=1', key: 'demo-free' })).statusCode).toBe(429);
    rude.clock.advance(200);
    await rude.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    const quota = (await report(rude)).findings.find((f) => f.rule === 'client.quota');
    expect(quota?.message).toContain('X-RateLimit-Remaining: 0 (and RateLimit r=0)');
    expect(quota?.instead).toContain('RateLimit r and t');
  });
});

