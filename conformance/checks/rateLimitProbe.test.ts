import { describe, expect, it } from 'vitest';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { ManualClock } from '../../mock/index.ts';
import { headerOf, withHeaders } from '../testing/catalogueHelpers.ts';
import { DropConnection } from '../testing/injectTransport.ts';
import { inProcessDeployment, type Transform } from '../testing/deployment.ts';
import { failedChecks, runSuite } from '../testing/runSuite.ts';
import type { ConformanceOptions } from '../index.ts';
import { probeCases } from '../model/judgeRateProbe.ts';

// A second and a half before a minute's end: in process the suite's requests take no time on the
// clock, so the probe's first 429 comes within the judges' two seconds of slack before the mock's
// fixed minute window resets, where no Retry-After can be judged too short.
const nearAMinutesEnd = () => new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 58, 500));

/** Retry-After in whole minutes, rounded down: 0 for any wait under a minute. */
const retryAfterInMinutes: Transform = async (req, forward) => {
  const res = await forward(req);
  const seconds = Number(headerOf(res, 'retry-after'));
  return res.status === 429 && Number.isFinite(seconds) ? withHeaders(res, { 'retry-after': String(Math.floor(seconds / 60)) }) : res;
};

/** After its first 429, the key is banned for two minutes, told with 403 (the contract names no status for a ban). */
function bannedWith403(): Transform {
  let bannedUntil = 0;
  return async (req, forward) => {
    const res = await forward(req);
    const at = Date.parse(headerOf(res, 'date') ?? '');
    if (req.headers.authorization !== undefined && at < bannedUntil) {
      return { status: 403, headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': String(Math.ceil((bannedUntil - at) / 1000)) }, body: stringifyExact({ code: 'KEY_BANNED', message: 'banned', status: 403 }) };
    }
    if (res.status === 429 && req.headers.authorization !== undefined && bannedUntil === 0) bannedUntil = at + 120_000;
    return res;
  };
}

async function probeNearTheEnd(transform?: Transform, options: Partial<ConformanceOptions> = {}) {
  const deployment = await inProcessDeployment(transform, {}, nearAMinutesEnd());
  try {
    const started = deployment.clock.now();
    const result = await runSuite(deployment, { probeRateLimit: true, ...options });
    return { result, waitedMs: deployment.clock.now() - started, sent: (which: string) => result.report.exchanges.filter((e) => e.case === which) };
  } finally {
    await deployment.close();
  }
}

describe('the rate-limit probe near a window\'s end', () => {
  it('fails a Retry-After a whole window short though the first 429 came in the window\'s last seconds, by spending the next window', async () => {
    const { result, sent } = await probeNearTheEnd(retryAfterInMinutes);
    expect(result.verdict).toBe('failed');
    // Retry-After 0 with the reset most of a minute away: the retry it told is refused again.
    expect(failedChecks(result)).toContain('rate-limit-probe');
    expect(sent(probeCases.spendNewWindow).at(-1)?.status).toBe(429);
  });

  it('fails it as well when the suite\'s clock runs a second and a half ahead of the deployment\'s', async () => {
    const deployment = await inProcessDeployment(retryAfterInMinutes, {}, nearAMinutesEnd());
    try {
      const result = await runSuite(deployment, { probeRateLimit: true, now: () => deployment.clock.now() + 1_500 });
      expect(failedChecks(result)).toContain('rate-limit-probe');
      // The new window was waited for by the deployment's own numbers: its first request was served.
      expect(result.report.exchanges.find((e) => e.case === probeCases.spendNewWindow)?.status).toBe(200);
    } finally {
      await deployment.close();
    }
  });

  it('passes the mock whose first 429 came near its window\'s end, after waiting for the next window and reaching its 429 too', async () => {
    const { result, waitedMs } = await probeNearTheEnd();
    expect(failedChecks(result)).toEqual([]);
    expect(result.verdict).toBe('passed');
    expect(waitedMs).toBeGreaterThanOrEqual(1_500);
    expect(result.report.notes.some((n) => /^Waiting [\d.]+ s, until [\d:]+ UTC, to spend the next window from its start; the rate-limit probe's 429 came less than 5 s before its window's end, too near it to judge\.$/.test(n))).toBe(true);
    const probe = result.report.exchanges.filter((e) => e.check === 'rate-limit-probe');
    // The second round's 429, then what follows a judged 429: nothing of it in the first window's last seconds.
    const secondRefusal = probe.findIndex((e) => e.case === probeCases.spendNewWindow && e.status === 429);
    expect(secondRefusal).toBeGreaterThan(0);
    expect(probe.slice(secondRefusal + 1).map((e) => e.case)).toContain(probeCases.again);
    expect(probe.slice(0, secondRefusal).map((e) => e.case)).not.toContain(probeCases.again);
  });

  it('does not fail a deployment that bans the key after its 429 with another status, and leaves the new window unjudged', async () => {
    const { result, sent } = await probeNearTheEnd(bannedWith403());
    expect(failedChecks(result)).toEqual([]);
    // One request into the ban, then nothing more with the key.
    expect(sent(probeCases.spendNewWindow).map((e) => e.status)).toEqual([403]);
    const probe = result.report.checks.find((c) => c.id === 'rate-limit-probe')!;
    expect(JSON.stringify(probe)).toMatch(/perhaps a ban, which the contract allows after a 429/);
  });

  it('says it did not wait when the next window is further than --max-wait, and judges no Retry-After in the last seconds', async () => {
    const { result, sent } = await probeNearTheEnd(retryAfterInMinutes, { maxWait: 1 });
    expect(sent(probeCases.spendNewWindow)).toEqual([]);
    expect(result.report.notes.some((n) => /^Not waiting [\d.]+ s \(longer than --max-wait \(1 s\)\) to spend the next window from its start; /.test(n))).toBe(true);
    // No Retry-After could be too short there: the rule is not reached, never held.
    expect(new Set(result.report.coverage?.filter((row) => row.rule === 'rate.retry-after-covers-reset').map((row) => row.status))).toEqual(new Set(['not reached']));
  });
});

describe('the rate-limit probe with a second key', () => {
  /** A throttle shield in front of the API: a key's 429 is stored and given again for 90 s, past the Retry-After it told. */
  function shieldReplaying429s(): Transform {
    const stored = new Map<string, { until: number; res: Awaited<ReturnType<Parameters<Transform>[1]>> }>();
    return async (req, forward, env) => {
      const key = req.headers.authorization ?? '';
      const kept = stored.get(key);
      if (kept && env.now() < kept.until) return kept.res;
      const res = await forward(req);
      if (res.status === 429 && !kept) stored.set(key, { until: env.now() + 90_000, res });
      return res;
    };
  }

  async function probeWithSecondKey(transform?: Transform) {
    const deployment = await inProcessDeployment(transform);
    try {
      const result = await runSuite(deployment, { probeRateLimit: true, apiKey2: 'demo-free' });
      const secondKey = result.report.exchanges.filter((e) => e.check === 'rate-limit-probe' && e.case?.startsWith('rate-limit-probe/second-key/'));
      return { result, secondKey };
    } finally {
      await deployment.close();
    }
  }

  it('spends the second key to its first 429 and not one request past it, then retries it once when its Retry-After has passed, served by the mock', async () => {
    const { result, secondKey } = await probeWithSecondKey();
    expect(failedChecks(result)).toEqual([]);
    const refusal = secondKey.findIndex((e) => e.status === 429);
    expect(secondKey.slice(0, refusal).every((e) => e.case === probeCases.secondKeySpend && e.status === 200)).toBe(true);
    expect(secondKey.slice(refusal + 1).map((e) => [e.case, e.status])).toEqual([[probeCases.secondKeyRetry, 200]]);
    expect(result.report.notes.some((n) => /^Waiting [\d.]+ s, until [\d:]+ UTC, to retry as the Retry-After of the second key's 429 told/.test(n))).toBe(true);
  });

  it('fails a deployment that refuses the second key again once the Retry-After it told has passed, though the key sent nothing meanwhile', async () => {
    const { result, secondKey } = await probeWithSecondKey(shieldReplaying429s());
    expect(secondKey.at(-1)).toMatchObject({ case: probeCases.secondKeyRetry, status: 429 });
    expect(failedChecks(result)).toContain('rate-limit-probe');
    const findings = result.report.checks.find((c) => c.id === 'rate-limit-probe')!.operations.flatMap((o) => o.findings.filter((f) => f.case === probeCases.secondKeyRetry));
    expect(findings.map((f) => [f.level, f.message])).toEqual([['failure', expect.stringMatching(/refused the second key with 429, Retry-After "\d+".*refused again with 429 and Retry-After "\d+", no longer/)]]);
  });
});

describe('the rate-limit probe when requests over the limit get no answer', () => {
  /**
   * A front proxy that closes the connection of every 429 (nginx's `return 444`), or only of the
   * keys whose Authorization `only` matches; `down`: of every request with a key once one was refused.
   */
  function closing429s({ down = false, only = /./ } = {}): Transform {
    let refused = false;
    return async (req, forward) => {
      if (down && refused && req.headers.authorization !== undefined) throw new DropConnection();
      const res = await forward(req);
      if (res.status !== 429 || !only.test(req.headers.authorization ?? '')) return res;
      refused = true;
      throw new DropConnection();
    };
  }

  async function probe(transform: Transform, options: Partial<ConformanceOptions> = {}) {
    const deployment = await inProcessDeployment(transform);
    try {
      const result = await runSuite(deployment, { probeRateLimit: true, ...options });
      const findings = result.report.checks.find((c) => c.id === 'rate-limit-probe')!.operations.flatMap((o) => o.findings);
      return { result, findings, sent: (which: string) => result.report.exchanges.filter((e) => e.case === which) };
    } finally {
      await deployment.close();
    }
  }

  it('fails a deployment that closes the connections of requests over the limit, shown by one request more and one once the window has ended', async () => {
    const { result, findings, sent } = await probe(closing429s());
    expect(result.verdict).toBe('failed');
    expect(sent(probeCases.lostNextWindow).map((e) => e.status)).toEqual([200]);
    const failures = findings.filter((f) => f.level === 'failure');
    expect(failures.map((f) => f.case)).toEqual([probeCases.lostAgain]);
    expect(failures[0]!.message).toMatch(/X-RateLimit-Remaining 0 until \d+; the 2 requests after it, in that window, got their connections closed on every try/);
  });

  it('fails it for the second key alike, spent as a polite client', async () => {
    const { findings, sent } = await probe(closing429s({ only: /demo-free/ }), { apiKey2: 'demo-free' });
    expect(sent(probeCases.lostNextWindow).map((e) => e.status)).toEqual([200]);
    expect(findings.filter((f) => f.level === 'failure').map((f) => f.case)).toEqual([probeCases.lostAgain]);
  });

  it('does not fail a deployment whose keyed requests all go unanswered once the key met its limit, as an outage would look', async () => {
    const { result, findings } = await probe(closing429s({ down: true }));
    expect(findings.filter((f) => f.level === 'failure')).toEqual([]);
    expect(result.verdict).not.toBe('failed');
  });
});
