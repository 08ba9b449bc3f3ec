import { describe, expect, it } from 'vitest';
import type { ConformanceResult } from './index.ts';
import { DropConnection, isCreate, isList, query, type Req, type Res, type Transform } from './testing/deployment.ts';
import { runOnFreshDeployment, runSuite } from './testing/runSuite.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import type { ConformanceOptions } from './index.ts';

/** The mock's answer to the preflight, then `change` on every answer to a request `when` picks. */
function afterPreflight(change: (res: Res) => Res, when: (req: Req) => boolean = () => true): Transform {
  let first = true;
  return async (req, forward) => {
    const res = await forward(req);
    if (first || !when(req)) {
      first = false;
      return res;
    }
    return change(res);
  };
}

const refusedKey = (res: Res): Res => ({ ...res, status: 401, body: JSON.stringify({ code: 'UNAUTHORIZED', message: 'no', status: 401 }) });
const throttled = (res: Res): Res => ({ ...res, status: 429, headers: { ...res.headers, 'retry-after': '3600' }, body: JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', status: 429 }) });
const withRunKey = (req: Req) => /Bearer demo-pro/i.test(req.headers.authorization ?? '');

const run = (transform: Transform | undefined, options: Partial<ConformanceOptions> = {}): Promise<ConformanceResult> => runOnFreshDeployment(transform, options);

const statusOf = (result: ConformanceResult, id: string) => result.report.checks.find((c) => c.id === id)!;

describe('a run that cannot judge the deployment exits 2, with the reason', () => {
  it('when the key is refused with 401', async () => {
    const result = await run(undefined, { apiKey: 'expired-key' });
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/^The deployment refused the API key: GET .*\/pets answered 401\. Check --api-key/);
    expect(result.report.checks).toEqual([]);
    expect(result.report.requests.total).toBe(1);
  });

  it('when the key is refused with 403', async () => {
    const result = await run(async (req, forward) => {
      const res = await forward(req);
      return res.status === 200 ? { ...res, status: 403, body: JSON.stringify({ code: 'FORBIDDEN', message: 'expired', status: 403 }) } : res;
    });
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/refused the API key: .* answered 403/);
  });

  it('when the base URL does not answer like this API', async () => {
    const result = await run(async () => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not here</h1>' }));
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/does not answer like the Pet Adoption API: GET .*\/pets gave 404 \(text\/html\)/);
  });

  it('when it cannot reach the deployment, after retrying the first read twice', async () => {
    const result = await run(async () => {
      throw new DropConnection();
    });
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/^Cannot reach .*UND_ERR_SOCKET\) \(3 tries\)/);
    expect(result.report.notes.filter((n) => /sent again/.test(n))).toHaveLength(2);
  });

  it('when the deployment stops answering, sending nothing after three requests in a row got no answer', async () => {
    let answered = 0;
    const result = await run(async (req, forward) => {
      if (answered++ >= 3) throw new DropConnection();
      return forward(req);
    });
    expect(result.exitCode).toBe(2);
    // The request lost, then a list without a key to tell an outage from a drop, lost too.
    expect(result.report.reason).toMatch(/the deployment stopped answering: \d requests in a row got no answer \(after retries\), after 3 answered/);
    expect(result.report.requests.failedAtTransport).toBeLessThanOrEqual(4);
  });

  it('when most requests get no answer, though some in between do', async () => {
    let sent = 0;
    const result = await run(async (req, forward) => {
      if (sent++ > 3 && sent % 4 !== 0) throw new DropConnection();
      return forward(req);
    });
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/requests got no answer \(after retries\)|stopped answering|requests of several credentials got no answer/);
  });
});

describe('a run that survives the network', () => {
  it.each([1, 2, 5, 30, 60, 100, 125])('passes when the GET sent as request %i has its connection dropped once', async (n) => {
    let seen = 0;
    let dropped = false;
    const result = await run(async (req, forward) => {
      if (++seen >= n && !dropped && req.method === 'GET') {
        dropped = true;
        throw new DropConnection();
      }
      return forward(req);
    });
    expect(dropped).toBe(true);
    expect(result.exitCode, result.report.reason).toBe(0);
    expect(result.report.requests.retried).toBe(1);
    expect(result.report.notes.join('\n')).toMatch(/failed: other side closed \(UND_ERR_SOCKET\); sent again after 250 ms \(retry 1\)/);
  });

  it('never sends a POST again after a dropped connection: its case is inconclusive, neither passed nor failed', async () => {
    let dropped = false;
    const posts: string[] = [];
    let droppedBody = '';
    const result = await run(async (req, forward) => {
      const sent = `${req.headers['content-type']} ${req.body}`;
      if (isCreate(req) && /^Bearer demo-pro$/.test(req.headers.authorization ?? '')) posts.push(sent);
      if (isCreate(req) && !dropped && /^Bearer demo-pro$/.test(req.headers.authorization ?? '') && req.body.startsWith('{"name"')) {
        dropped = true;
        droppedBody = sent;
        throw new DropConnection();
      }
      return forward(req);
    });
    expect(result.exitCode, result.report.reason).toBe(0);
    expect(posts.filter((body) => body === droppedBody)).toHaveLength(1);
    const inconclusive = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.inconclusive ?? []));
    expect(inconclusive).toEqual(expect.arrayContaining([expect.objectContaining({ reason: expect.stringMatching(/never sent again blindly/) })]));
  });

  it('calls a GET that fails three times inconclusive, not failed', async () => {
    const result = await run(async (req, forward) => {
      if (isList(req) && query(req).get('limit') === '1.5') throw new DropConnection();
      return forward(req);
    }, { checks: ['pagination'] });
    expect(result.exitCode).toBe(0);
    const op = statusOf(result, 'pagination').operations[0]!;
    expect(op.status).toBe('passed');
    expect(op.inconclusive).toEqual([{ case: 'list-pets/query/limit/float', reason: expect.stringMatching(/\(3 tries\)/) }]);
  });
});

describe('a check that saw only answers that cannot judge it', () => {
  it('is skipped, not passed, when the run\'s own key is refused after the preflight', async () => {
    const result = await run(afterPreflight(refusedKey, withRunKey));
    for (const id of ['status-filter', 'pagination', 'get-pet', 'create-pet', 'pet-lifecycle']) {
      expect(statusOf(result, id).status, id).toBe('skipped');
      expect(statusOf(result, id).operations[0]!.reason, id).toMatch(/refused the run's own key/);
    }
    // The key accepted once and refused after is the deployment's fault: auth says so.
    expect(statusOf(result, 'auth').status).toBe('failed');
  });

  it('fails rate-limit-accounting at once, without waiting, when every request is refused with 429 while the headers say requests remain', async () => {
    const result = await run(afterPreflight(throttled));
    expect(result.exitCode).toBe(1);
    expect(result.report.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['rate-limit-accounting']);
    expect(result.report.notes.join('\n')).not.toMatch(/Waiting/);
  });

  it('leaves the passive checks nothing to pass when every request was refused with a 429 its headers announced', async () => {
    // The preflight's answer says the window is spent; every later request is a 429 that says so too.
    const announced = (res: Res): Res => ({ ...res, headers: { ...res.headers, 'x-ratelimit-remaining': '0' } });
    let first = true;
    const result = await run(async (req, forward) => {
      const res = await forward(req);
      if (first) {
        first = false;
        return announced(res);
      }
      return throttled({ ...res, headers: { ...res.headers, 'x-ratelimit-remaining': '0' } });
    });
    expect(result.exitCode, result.report.checks.filter((c) => c.status === 'failed').map((c) => c.id).join()).toBe(2);
  });

  it('is skipped when every answer is a 429 the suite did not ask for, and the key is left alone', async () => {
    const result = await run(afterPreflight(throttled, withRunKey), { checks: ['pagination', 'get-pet'] });
    expect(result.report.checks.map((c) => c.status)).toEqual(['skipped', 'skipped']);
    expect(result.report.checks[0]!.operations[0]!.reason).toMatch(/429/);
    // Nothing was judged, so nothing passed: the run could not judge the deployment.
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/^No check could judge the deployment: .*429/);
    // One 429 for the key, and at most one for the anonymous quota a near miss of the key spends.
    expect(result.report.exchanges.filter((e) => e.status === 429).length).toBeLessThanOrEqual(2);
  });
});

describe('a deployment that is unavailable', () => {
  const unavailable = (res: Res): Res => ({ status: 503, headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': '1' }, body: JSON.stringify({ code: 'STORE_UNAVAILABLE', message: 'The store is down.', status: 503 }) });

  it('exits 2 when the preflight is answered 503, saying the deployment was unavailable', async () => {
    const result = await run(async (req, forward) => unavailable(await forward(req)));
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/^the deployment was unavailable: GET .*\/pets answered 503/);
    expect(result.report.checks).toEqual([]);
  });

  it('exits 2, failing no check, when its store goes away mid-run', async () => {
    let answered = 0;
    const result = await run(async (req, forward) => {
      const res = await forward(req);
      return ++answered > 40 ? unavailable(res) : res;
    });
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/^the deployment was unavailable \(\d+ of \d+ answers 503\)/);
    expect(result.report.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
  });

  it('sends a GET answered 503 again after its Retry-After, and judges the answer that follows', async () => {
    let first = true;
    const result = await run(async (req, forward) => {
      const res = await forward(req);
      if (first && isList(req) && query(req).get('limit') === '1') {
        first = false;
        return unavailable(res);
      }
      return res;
    });
    expect(result.exitCode, result.report.reason).toBe(0);
    expect(result.report.notes.join('\n')).toMatch(/answered 503 \(unavailable\); sent again after 1\.0 s/);
  });
});

describe('a deployment that throttles far below what its headers say', () => {
  it('fails rate-limit-accounting at the first contradicting 429 and ends within its time budget, waiting for nothing', async () => {
    let served = 0;
    const result = await run(async (req, forward) => {
      const res = await forward(req);
      if (!/^Bearer demo-pro$/i.test(req.headers.authorization ?? '')) return res;
      served++;
      // It advertises 3,000 a minute and throttles at 10.
      const headers = { ...res.headers, 'x-ratelimit-limit': '3000', 'x-ratelimit-remaining': String(3000 - served) };
      if (served <= 10) return { ...res, headers };
      return { status: 429, headers: { ...headers, 'content-type': 'application/json', 'retry-after': '60' }, body: JSON.stringify({ code: 'RATE_LIMITED', message: 'Slow down.', status: 429 }) };
    });
    expect(result.exitCode).toBe(1);
    const accounting = statusOf(result, 'rate-limit-accounting');
    expect(accounting.status).toBe('failed');
    expect(accounting.operations.flatMap((o) => o.findings).map((f) => f.message).join('\n')).toMatch(/answered 429, yet #\d+ said X-RateLimit-Remaining 29\d\d/);
    expect(result.report.notes.join('\n')).not.toMatch(/Waiting/);
    expect(result.report.durationMs).toBeLessThan(5_000);
  });
});

describe('pacing', () => {
  it('leaves the keyless quota enough for a second default run from the same address in the same minute', async () => {
    const deployment = await inProcessDeployment();
    try {
      // A key with room for both runs, so that only the keyless quota could make one wait.
      const first = await runSuite(deployment, { apiKey: 'demo-enterprise' });
      const second = await runSuite(deployment, { apiKey: 'demo-enterprise' });
      for (const result of [first, second]) {
        expect(result.exitCode, JSON.stringify(result.report.notes)).toBe(0);
        expect(result.report.requests.withoutKey).toBeLessThanOrEqual(30);
        expect(result.report.notes.join('\n')).not.toMatch(/Waiting/);
      }
      expect(second.report.exchanges.filter((e) => e.status === 429)).toEqual([]);
    } finally {
      await deployment.close();
    }
  });

  it('meets no 429 with a Free key (60 a minute) on a default run, waiting for the window instead', async () => {
    const result = await run(undefined, { apiKey: 'demo-free' });
    expect(result.exitCode, JSON.stringify(result.report.notes)).toBe(0);
    expect(result.report.exchanges.filter((e) => e.status === 429)).toEqual([]);
    expect(result.report.requests.withKey).toBeGreaterThan(60);
    expect(result.report.notes.some((n) => /^Waiting \d+\.\d s for the API key's quota to reset rather than spend its last request; next request at \d\d:\d\d:\d\d UTC\.$/.test(n))).toBe(true);
  });
});
