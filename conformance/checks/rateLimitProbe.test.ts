import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../mock/index.ts';
import { headerOf, withHeaders } from '../testing/catalogueHelpers.ts';
import { inProcessDeployment, type Transform } from '../testing/deployment.ts';
import { failedChecks, runSuite } from '../testing/runSuite.ts';
import { probeCases } from '../model/judgeRateProbe.ts';

// Three seconds before a minute's end: in process the suite's requests take no time on the clock,
// so the probe's 429 comes three seconds before the mock's fixed minute window resets.
const nearAMinutesEnd = () => new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 57));

/** Retry-After in whole minutes, rounded down: 0 for any wait under a minute. */
const retryAfterInMinutes: Transform = async (req, forward) => {
  const res = await forward(req);
  const seconds = Number(headerOf(res, 'retry-after'));
  return res.status === 429 && Number.isFinite(seconds) ? withHeaders(res, { 'retry-after': String(Math.floor(seconds / 60)) }) : res;
};

async function probeNearTheEnd(transform?: Transform) {
  const deployment = await inProcessDeployment(transform, {}, nearAMinutesEnd());
  try {
    const started = deployment.clock.now();
    const result = await runSuite(deployment, { probeRateLimit: true });
    return { result, waitedMs: deployment.clock.now() - started };
  } finally {
    await deployment.close();
  }
}

describe('the rate-limit probe near a window\'s end', () => {
  it('fails a Retry-After a whole window short though the first 429 came in the window\'s last seconds, by spending the next window', async () => {
    const { result } = await probeNearTheEnd(retryAfterInMinutes);
    expect(result.verdict).toBe('failed');
    expect(failedChecks(result)).toContain('rate-limit-accounting');
    const secondRound = result.report.exchanges.filter((e) => e.case === probeCases.spendNewWindow);
    expect(secondRound.at(-1)?.status).toBe(429);
  });

  it('passes the mock whose first 429 came near its window\'s end, after waiting for the next window and reaching its 429 too', async () => {
    const { result, waitedMs } = await probeNearTheEnd();
    expect(failedChecks(result)).toEqual([]);
    expect(result.verdict).toBe('passed');
    expect(waitedMs).toBeGreaterThanOrEqual(3_000);
    expect(result.report.notes.some((n) => /too near to judge; it spends the next window from its start/.test(n))).toBe(true);
    const probe = result.report.exchanges.filter((e) => e.check === 'rate-limit-probe');
    // The second round's 429, then what follows every judged 429: nothing of it in the first window's last seconds.
    const secondRefusal = probe.findIndex((e) => e.case === probeCases.spendNewWindow && e.status === 429);
    expect(secondRefusal).toBeGreaterThan(0);
    expect(probe.slice(secondRefusal + 1).map((e) => e.case)).toContain(probeCases.again);
    expect(probe.slice(0, secondRefusal).map((e) => e.case)).not.toContain(probeCases.again);
  });

  it('spends one window only when its 429 comes well before the window\'s end', async () => {
    const deployment = await inProcessDeployment();
    try {
      const result = await runSuite(deployment, { probeRateLimit: true });
      expect(result.report.exchanges.filter((e) => e.case === probeCases.spendNewWindow)).toEqual([]);
    } finally {
      await deployment.close();
    }
  });
});
