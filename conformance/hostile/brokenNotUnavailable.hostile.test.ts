// Broken is not unavailable: a deployment that answers, but answers wrongly at the transport level,
// fails the run (exit 1) with the bytes or timings that show it, rather than ending it as one that
// stopped answering (exit 2). Each runs the mock behind an HTTP front on 127.0.0.1, over real sockets.
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { isList, startDeployment, text, type Deployment, type Transform } from '../testing/deployment.ts';
import { testSpec } from '../../mock/testing.ts';

let deployment: Deployment | undefined;
afterEach(async () => {
  await deployment?.close();
  deployment = undefined;
});

const run = async (transform: Transform) => {
  deployment = await startDeployment(transform);
  return runConformance({ baseUrl: deployment.baseUrl, apiKey: 'demo-pro', spec: await testSpec(), timeout: 2000 });
};
const findings = (result: Awaited<ReturnType<typeof run>>, check: string) => result.report.checks.find((c) => c.id === check)!.operations.flatMap((o) => o.findings).map((f) => f.message).join('\n');

describe('a deployment that answers, but breaks HTTP at the transport, fails with the evidence', () => {
  it('whose Content-Length counts UTF-16 units (bodies cut short, the rest spilling after them) fails wire-format with the bytes', async () => {
    const result = await run(async (req, forward) => {
      const res = await forward(req);
      // String length, not byte length: one short per two-byte character, two per astral one.
      return { ...res, headers: { ...res.headers, 'content-length': String(text(res).length) } };
    });
    expect(result.exitCode).toBe(1);
    expect(findings(result, 'wire-format')).toMatch(/HPE_INVALID_CONSTANT.*it came after the \d+ body bytes the answer's framing counts, so that framing does not count the whole body/);
    // On a raw connection, the bytes left behind say which answer's length is short.
    expect(findings(result, 'http-framing')).toMatch(/its Content-Length \(\d+\) ends the body before \d+ bytes? that starts? no answer/);
  }, 120_000);

  it('whose list requests hang while every other request is answered fails wire-format with the timings', async () => {
    let first = true;
    const result = await run(async (req, forward) => {
      // The preflight's list is answered; every later one hangs.
      if (isList(req) && !first) return new Promise(() => {});
      if (isList(req)) first = false;
      return forward(req);
    });
    expect(result.exitCode).toBe(1);
    expect(result.report.reason).toBeUndefined();
    expect(findings(result, 'wire-format')).toMatch(/^listPets got no answer at all: 2 requests in a row \(GET \/pets\?\S+ \(3 tries\), GET \/pets\?\S+ \(1 try\)\) each waited \d+–?\d* ms and nothing came, not even a status line, while \d+ requests sent after the first of them \(.*\) were answered/m);
  }, 120_000);
});
