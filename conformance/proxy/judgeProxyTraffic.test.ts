import { describe, expect, it } from 'vitest';
import { testMock, testSpec } from '../../mock/testing.ts';
import { judgeProxyTraffic } from './judgeProxyTraffic.ts';
import type { ProxyRecord } from './proxyRecord.ts';

const target = 'http://staging.test/v1';

/**
 * Records of `GET /v1/pets/1` as the mock answers it, with the Remaining each one says and when the
 * proxy held it (on the monotonic clock; `sentAt` and `durationMs` rounded as the proxy rounds them).
 */
async function records(answers: { remaining: number; from: number; to: number }[]): Promise<ProxyRecord[]> {
  const { call, clock } = await testMock();
  const out: ProxyRecord[] = [];
  for (const [i, { remaining, from, to }] of answers.entries()) {
    const res = await call({ method: 'GET', url: '/v1/pets/1', key: 'demo-pro' });
    const epoch = clock.now();
    // The deployment's Date is its clock's (inject stamps the machine's).
    const rewritten: Record<string, string> = { 'x-ratelimit-remaining': String(remaining), date: new Date(epoch).toUTCString() };
    const rawHeaders = Object.entries(res.headers).map(([name, value]): [string, string] => [name, rewritten[name] ?? String(value)]);
    out.push({
      seq: i + 1,
      sentAt: epoch + Math.floor(from),
      method: 'GET',
      url: '/v1/pets/1',
      requestHeaders: { authorization: 'Bearer demo-pro', host: 'staging.test' },
      response: { status: res.statusCode, rawHeaders, bytes: new Uint8Array(res.rawPayload), durationMs: Math.round(to - from) },
      span: { from, to },
    });
  }
  return out;
}

const failures = async (recorded: ProxyRecord[]) => {
  const { findings } = await judgeProxyTraffic(recorded, { spec: await testSpec(), target, sharedKey: false, startedAt: 0, now: 0 });
  return findings.filter((f) => f.level === 'failure').map((f) => `${f.rule}: ${f.message}`);
};

describe('judging the traffic a proxy kept', () => {
  it('counts a request that arrived while an answer was ending as in flight with it, however the milliseconds round', async () => {
    // #3 and #4 were both in flight when #2 arrived, within the same millisecond as #3's end:
    // the deployment may have counted #4 before #3, so 147, 145, 146 after 148 is each counted once.
    const recorded = await records([
      { remaining: 148, from: 1, to: 2 },
      { remaining: 147, from: 10.1, to: 12.4 },
      { remaining: 145, from: 10.5, to: 12.6 },
      { remaining: 146, from: 12.5, to: 13 },
    ]);
    expect(await failures(recorded)).toEqual([]);
  });

  it('still holds requests that followed each other to one each', async () => {
    const recorded = await records([
      { remaining: 148, from: 1, to: 2 },
      { remaining: 147, from: 10.1, to: 12.4 },
      { remaining: 145, from: 12.45, to: 12.9 },
    ]);
    expect((await failures(recorded)).join('\n')).toMatch(/rate\.cost: #3 GET \/pets\/1 says X-RateLimit-Remaining 145; #2 said 147/);
  });
});
