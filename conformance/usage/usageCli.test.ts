// `pets-conformance --usage FILE`: every report says first whether the deployment keeps the
// contract for what each client of the file uses; the exit code stays the contract's.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UsageFile } from '../../common/usage/clientUsage.ts';
import { startDeployment } from '../testing/deployment.ts';
import { faults } from '../testing/faults.ts';
import { runCli } from '../testing/runCli.ts';

const petReader = (client: string, pet: string[]): UsageFile['clients'][number] => ({
  client,
  label: client,
  requests: 2,
  operations: [{ operationId: 'listPets', method: 'GET', path: '/pets', requests: 2, query: { limit: ['in-range'] }, body: [], reads: { 200: pet }, statuses: [200] }],
});

describe('pets-conformance --usage', () => {
  it('says first, in the console and every report, that a deployment whose statuses are outside PetStatus is safe for a client that never reads status and not for one that does, and exits 1 for the contract', async () => {
    const fault = faults.find((f) => f.name === 'sends a status outside PetStatus')!;
    const deployment = await startDeployment(fault.transform);
    try {
      const dir = await mkdtemp(join(tmpdir(), 'usage-'));
      const file = join(dir, 'usage.json');
      await writeFile(file, JSON.stringify({ format: 'pets-usage/1', source: 'hand', clients: [petReader('list-page', ['id', 'name']), petReader('status-badge', ['id', 'status'])] } satisfies UsageFile));
      const run = await runCli(['--base-url', deployment.baseUrl, '--api-key', 'demo-pro', '--checks', 'response-schema', '--depth', '0', '--usage', file]);
      expect(run.code, run.output).toBe(1);
      const summary = run.stdout.slice(run.stdout.indexOf('\n\n') + 2).split('\n');
      expect(summary[0]).toMatch(/^For client list-page: safe for this client: the deployment breaks the contract, but none of its \d+ failures reach what this client uses\.$/);
      expect(summary[1]).toMatch(/^For client status-badge: NOT SAFE: the deployment breaks the contract, and \d+ failures? reach(es)? what this client uses \(body\.schema; first: the answer field status of listPets \(GET \/pets\) answered 200\)\.$/);
      expect(summary[2]).toMatch(/^ {2}- body\.schema on the answer field status of listPets \(GET \/pets\) answered 200: GET .* body\[\d+\]\.status must be one of available, pending, sold/);
      const report = await run.report();
      expect(Object.keys(report)[0]).toBe('usage');
      expect(report.usage!.clients.map((c) => c.verdict)).toEqual(['safe', 'broken']);
      const markdown = await readFile(join(run.reportDir, 'conformance-summary.md'), 'utf8');
      expect(markdown.split('\n')[2]).toMatch(/^\*\*For client list-page: safe for this client/);
      const html = await readFile(join(run.reportDir, 'conformance-report.html'), 'utf8');
      expect(html.indexOf('For client list-page: safe for this client')).toBeGreaterThan(0);
      expect(html.indexOf('For client list-page')).toBeLessThan(html.indexOf('<h1>'));
    } finally {
      await deployment.close();
    }
  }, 60_000);

  it('exits 2 before sending anything when the usage file is not one, or --fail-on usage has no usage file, saying why', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'usage-'));
    const file = join(dir, 'usage.json');
    await writeFile(file, '{"format":"pets-usage/1","clients":[{"client":"x","operations":[{"operationId":"deletePet"}]}]}');
    const run = await runCli(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--usage', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a usage file: clients[0].operations[0].operationId is "deletePet", not one of ');
    const alone = await runCli(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--fail-on', 'usage']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--fail-on usage needs --usage FILE');
  });
});
