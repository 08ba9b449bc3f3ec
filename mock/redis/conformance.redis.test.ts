// The conformance suite holds the mock on Redis to the contract as it holds the in-memory mock:
// one replica, and two replicas taking turns, every request admitted and answered in one round trip.
import { describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { generatePets } from '../../fixtures/generatePets.ts';
import { injectForward, injectTransport } from '../../conformance/testing/injectTransport.ts';
import { inProcessDeployment } from '../../conformance/testing/deployment.ts';
import { runSuite } from '../../conformance/testing/runSuite.ts';
import { checkIds } from '../../conformance/checks/index.ts';
import { uniquePrefix, useRedisServer } from './testing/redisServer.ts';

const redis = useRedisServer<{ close(): Promise<unknown> }>();
// Half past twelve and thirty seconds: far from a minute or day boundary.
const start = Date.UTC(2026, 5, 1, 12, 30, 30);

describe('the conformance suite against the mock on Redis', () => {
  it('passes one replica', async () => {
    const deployment = await inProcessDeployment(undefined, { redis: { url: redis.server.url, prefix: uniquePrefix() } }, new ManualClock(start));
    redis.open.push({ close: () => deployment.close() });
    const result = await runSuite(deployment);
    expect(result.report.checks.map((c) => [c.id, c.status])).toEqual(checkIds.map((id) => [id, id === 'rate-limit-probe' || id === 'http-framing' ? 'skipped' : 'passed']));
    expect(result.exitCode).toBe(0);
  });

  it('passes two replicas on one prefix, the requests alternating between them', async () => {
    const clock = new ManualClock(start);
    const prefix = uniquePrefix();
    const deployment = await inProcessDeployment(undefined, { redis: { url: redis.server.url, prefix } }, clock);
    redis.open.push({ close: () => deployment.close() });
    const other = await buildMock({ spec: await testSpec(), pets: generatePets({ count: 60 }), clock, redis: { url: redis.server.url, prefix } });
    redis.open.push(other);
    let turn = 0;
    const result = await runSuite({
      ...deployment,
      transport: injectTransport(deployment.mock, (req, forward) => (turn++ % 2 === 0 ? forward(req) : injectForward(other)(req)), clock),
    });
    expect(result.report.checks.map((c) => [c.id, c.status])).toEqual(checkIds.map((id) => [id, id === 'rate-limit-probe' || id === 'http-framing' ? 'skipped' : 'passed']));
    expect(result.exitCode).toBe(0);
  });
});
