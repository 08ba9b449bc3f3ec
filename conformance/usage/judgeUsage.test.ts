// The case issue 26 names: a deployment whose status values are broken breaks the contract, and is
// safe for a client that never reads `status`, and not for one that does.
import { describe, expect, it } from 'vitest';
import type { ClientUsage, OperationUsage, UsageFile } from '../../common/usage/clientUsage.ts';
import { faults } from '../testing/faults.ts';
import { runOnFreshDeployment } from '../testing/runSuite.ts';
import type { RunReport } from '../runReport.ts';
import { judgeUsage, usageExitCode } from './judgeUsage.ts';
import type { ClientUsageVerdict } from './usageVerdict.ts';

const op = (operationId: string, method: string, path: string, parts: Partial<OperationUsage>): OperationUsage => ({ operationId, method, path, requests: 3, query: {}, body: [], reads: {}, statuses: [], ...parts });

/** A page that lists pets (limit only), adds one and shows it: what it reads of a Pet is `pet`. */
const client = (label: string, pet: string[]): ClientUsage => ({
  client: `key:${label}`,
  label,
  requests: 9,
  operations: [
    op('listPets', 'GET', '/pets', { query: { limit: ['in-range'] }, reads: { 200: pet }, statuses: [200] }),
    op('createPet', 'POST', '/pets', { body: ['categoryId', 'name'], reads: { 201: pet, 400: ['code', 'message'] }, statuses: [201, 400] }),
    op('getPet', 'GET', '/pets/{petId}', { reads: { 200: pet, 404: ['message'] }, statuses: [200, 404] }),
  ],
});

const usage: UsageFile = { format: 'pets-usage/1', source: 'hand', clients: [client('never-status', ['categoryId', 'id', 'name']), client('reads-status', ['categoryId', 'id', 'name', 'status'])] };

describe('a deployment judged for a client\'s usage', () => {
  it('whose status values are outside PetStatus breaks the contract, is safe for a client that never reads status, and not for one that does', async () => {
    const fault = faults.find((f) => f.name === 'sends a status outside PetStatus')!;
    const { report } = await runOnFreshDeployment(fault.transform);
    expect(report.verdict).toBe('failed');
    const [never, reads] = judgeUsage(report, usage).clients;
    expect(never!.verdict, JSON.stringify(never!.broken, null, 2)).toBe('safe');
    expect(never!.headline).toMatch(/^For client never-status: safe for this client: the deployment breaks the contract, but none of its \d+ failures reach what this client uses\.$/);
    expect(never!.unused.length).toBeGreaterThan(0);
    expect(reads!.verdict).toBe('broken');
    expect(reads!.broken.map((b) => b.rule)).toContain('body.schema');
    expect(reads!.broken.find((b) => b.rule === 'body.schema')!.place).toMatch(/^the answer field status of (listPets|createPet|getPet)/);
    expect(reads!.headline).toMatch(/^For client reads-status: NOT SAFE: the deployment breaks the contract, and \d+ failures reach what this client uses \(.*body\.schema/);
    // The filter is not used by either client: its failures reach neither.
    expect([...never!.unused, ...reads!.unused].some((u) => u.rule === 'data.status-filter')).toBe(true);
  });

  it('on a deployment that keeps the contract is safe for a client whose every operation the run judged', async () => {
    const { report } = await runOnFreshDeployment();
    expect(report.verdict).toBe('passed');
    const [verdict] = judgeUsage(report, { ...usage, clients: [usage.clients[1]!] }).clients;
    expect(verdict).toMatchObject({ verdict: 'safe', broken: [], unused: [], unjudged: [], headline: 'For client reads-status: safe for this client: the deployment keeps the contract.' });
  });
});

describe('the exit code of --fail-on usage', () => {
  const withClients = (verdict: RunReport['verdict'], ...verdicts: ClientUsageVerdict['verdict'][]) =>
    ({ verdict, usage: { source: 'hand', clients: verdicts.map((v) => ({ client: 'c', label: 'c', verdict: v, broken: [], unused: [], unjudged: [], headline: '' })) } }) as unknown as RunReport;

  it('is 1 when a failure reaches a client, 0 when every client is safe though the contract is broken, 2 when a client or the run was not judged', () => {
    expect(usageExitCode(withClients('failed', 'safe', 'broken'))).toBe(1);
    expect(usageExitCode(withClients('failed', 'safe', 'safe'))).toBe(0);
    expect(usageExitCode(withClients('failed', 'safe', 'not-judged'))).toBe(2);
    expect(usageExitCode(withClients('cannot-run', 'not-judged'))).toBe(2);
    expect(usageExitCode(withClients('passed', 'safe'))).toBe(0);
  });
});
