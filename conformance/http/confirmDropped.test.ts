import { describe, expect, it } from 'vitest';
import { DropConnection, type Transform } from '../testing/injectTransport.ts';
import { failedChecks, runOnFreshDeployment } from '../testing/runSuite.ts';
import { droppedCases } from './confirmDropped.ts';

/** Closes the connection of every request without an Authorization header, as a WAF rule may. */
const dropsKeyless: Transform = (req, forward) => {
  if (req.headers.authorization === undefined && req.method !== 'OPTIONS') throw new DropConnection();
  return forward(req);
};

/** Closes the connection of the first `n` keyless requests only: a blip. */
function dropsFirstKeyless(n: number): Transform {
  let dropped = 0;
  return (req, forward) => {
    if (req.headers.authorization === undefined && req.method !== 'OPTIONS' && dropped < n) {
      dropped++;
      throw new DropConnection();
    }
    return forward(req);
  };
}

describe('a request given up at the transport, told apart from an outage', () => {
  it('fails a deployment that drops every request without a key while it answers those with one, and sends no more without a key', async () => {
    const result = await runOnFreshDeployment(dropsKeyless);
    expect(result.exitCode, result.report.reason).toBe(1);
    expect(failedChecks(result)).toContain('wire-format');
    const exchanges = result.report.exchanges;
    expect(exchanges.filter((e) => e.case === droppedCases.around).map((e) => e.status)).toEqual([200, 200]);
    // After the plain list without a key was dropped too, nothing more went without a key.
    const keyless = exchanges.filter((e) => !Object.keys(e.requestHeaders).some((name) => name.toLowerCase() === 'authorization') && e.method !== 'OPTIONS');
    expect(keyless).toEqual([]);
    expect(result.report.notes.join('\n') + JSON.stringify(result.report.checks)).toMatch(/not sent: the deployment dropped requests without a key while it answered others/);
  });

  it('passes a deployment that closed one connection on a request without a key once, whose plain list is then answered', async () => {
    const result = await runOnFreshDeployment(dropsFirstKeyless(3));
    expect(result.exitCode, `${result.report.reason ?? ''} ${failedChecks(result).join(', ')}`).toBe(0);
    expect(result.report.exchanges.filter((e) => e.case === droppedCases.plain).map((e) => e.status)).toEqual([401]);
  });
});
