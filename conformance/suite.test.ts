import { describe, expect, it } from 'vitest';
import { compileSchema } from '../spec/compileSchema.ts';
import { componentSchema } from '../spec/loadSpec.ts';
import { defaultPetsFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { testSpec } from '../mock/testing.ts';
import { checkIds } from './checks/index.ts';
import { dimensions } from './traffic/relations.ts';
import type { ConformanceOptions, ConformanceResult } from './index.ts';
import type { TransportRequest } from './http/transport.ts';
import { inProcessDeployment, passThroughRecorder } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';

/** A run against the mock with its default fixtures (as `npm start` serves them), recording what was sent. */
async function run(options: Partial<ConformanceOptions> = {}): Promise<{ result: ConformanceResult; sent: TransportRequest[]; storeSize: number }> {
  const spec = await testSpec();
  const pets = await loadPetsFile(defaultPetsFile, compileSchema(componentSchema(spec, 'Pets')));
  const deployment = await inProcessDeployment(undefined, { pets });
  const sent: TransportRequest[] = [];
  try {
    const result = await runSuite({ ...deployment, transport: passThroughRecorder(deployment.transport, sent) }, options);
    return { result, sent, storeSize: await deployment.mock.mock.store.count() };
  } finally {
    await deployment.close();
  }
}

describe('a run against the mock', () => {
  it('passes every check, makes the requests docs/qa-staging.md states, and names itself on each', async () => {
    const { result, sent } = await run();
    expect(result.exitCode).toBe(0);
    // runConformance writes no file unless given reportDir.
    expect(result.reportPaths).toBeUndefined();
    // In process there is no socket: the framing probe is skipped, as the rate-limit probe is without --probe-rate-limit.
    expect(result.report.checks.map((c) => [c.id, c.status])).toEqual(checkIds.map((id) => [id, id === 'rate-limit-probe' || id === 'http-framing' ? 'skipped' : 'passed']));
    // The "What a run does, and what it costs" table of docs/qa-staging.md.
    expect(result.report.requests).toMatchObject({ total: 304, withKey: 274, withoutKey: 30 });
    expect(sent).toHaveLength(result.report.requests.total);
    // A client's own product token comes first where the suite sends that client's headers (RFC 9110, 10.1.5).
    const agents = sent.map((r) => Object.entries(r.headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? '');
    expect(agents.filter((a) => !/(^| )pets-conformance\/\d+\.\d+\.\d+$/.test(a))).toEqual([]);
    expect(agents.filter((a) => /^pets-conformance\//.test(a)).length).toBeGreaterThan(sent.length * 0.9);
    expect(new Set(sent.map((r) => r.headers['x-conformance-run-id']))).toEqual(new Set([result.report.runId]));
    const probe = result.report.checks.find((c) => c.id === 'rate-limit-probe')!;
    expect(probe.operations[0]?.reason).toMatch(/--probe-rate-limit/);
    // Every dimension the relations vary was judged (in process, another client address is at hand).
    const relations = (result.report.coverage ?? []).filter((r) => r.rule.startsWith('relation/'));
    expect(new Set(relations.map((r) => r.rule))).toEqual(new Set(dimensions.map((d) => `relation/${d}`)));
    expect(relations.filter((r) => r.status !== 'judged')).toEqual([]);
  });

  it('sends more generated sequences at --depth full, the same requests for the same --seed and others for another', async () => {
    const first = await run({ depth: 'full', seed: 7 });
    const second = await run({ depth: 'full', seed: 7 });
    const other = await run({ depth: 'full', seed: 8 });
    expect(first.result.exitCode).toBe(0);
    expect(first.result.report.requests.total).toBeGreaterThan(450);
    // Names that must be unique beyond the run carry its run's mark; all else is the seed's.
    const requests = (r: typeof first) => r.sent.map((s) => `${s.method} ${s.url} ${s.body ?? ''}`.replace(new RegExp(r.result.report.runId.replace(/-/g, '').slice(0, 8), 'g'), '<run>'));
    expect(requests(second)).toEqual(requests(first));
    expect(requests(other)).not.toEqual(requests(first));
  });

  it('sends only GET requests with --read-only, and reports what writes as skipped', async () => {
    const { result, sent, storeSize } = await run({ readOnly: true });
    expect(result.exitCode).toBe(0);
    expect(new Set(sent.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(storeSize).toBe(250);
    expect(result.report.requests.total).toBe(212);
    expect(result.report.checks.filter((c) => c.status === 'skipped').map((c) => c.id)).toEqual(['create-pet', 'pet-lifecycle', 'http-framing', 'rate-limit-probe']);
    expect(result.report.checks.find((c) => c.id === 'auth')?.operations.find((o) => o.operationId === 'createPet')?.status).toBe('skipped');
  });

  it('reports only the checks asked for, and leaves out the excluded ones', async () => {
    const only = await run({ checks: ['pagination', 'status-codes'] });
    expect(only.result.report.checks.map((c) => c.id)).toEqual(['pagination', 'status-codes']);
    // A selection changes what is reported, never what is sent: a check's verdict alone is its verdict in a full run.
    const full = await run();
    expect(only.result.report.requests.total).toBe(full.result.report.requests.total);
    const without = await run({ excludeChecks: ['create-pet', 'auth'] });
    expect(without.result.report.checks.map((c) => c.id)).toEqual(checkIds.filter((id) => id !== 'create-pet' && id !== 'auth'));
  });
});
