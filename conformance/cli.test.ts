import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkIds } from './checks/index.ts';
import { startDeployment, type Deployment, type Req } from './testing/deployment.ts';
import { legalChoices } from './testing/legalChoices.ts';
import { runCli } from './testing/runCli.ts';

/** A deployment closed when the test that started it ends (tests here run concurrently). */
async function deployment(...args: Parameters<typeof startDeployment>): Promise<Deployment> {
  const d = await startDeployment(...args);
  onTestFinished(() => d.close());
  return d;
}

describe.concurrent('pets-conformance against deployments that keep the contract', () => {
  it('passes the project\'s mock with the rate-limit probe and leaves JUnit, JSON, HTML and Markdown reports', async () => {
    const mock = await deployment();
    const run = await runCli(['--base-url', mock.baseUrl, '--api-key', 'demo-pro', '--probe-rate-limit']);
    expect(run.code, run.output).toBe(0);
    const report = await run.report();
    expect(report.checks.map((c) => [c.id, c.status])).toEqual(checkIds.map((id) => [id, 'passed']));
    // The probe's last exchange is the 429 it was after, and nothing was sent with the key after it.
    const last = report.exchanges.at(-1)!;
    expect(last).toMatchObject({ check: 'rate-limit-probe', status: 429, rateLimit: { 'retry-after': expect.any(String) } });
    expect(report.exchanges).toHaveLength(report.requests.total);
    const junit = await readFile(join(run.reportDir, 'conformance-junit.xml'), 'utf8');
    expect(junit).toContain('<testcase classname="auth" name="auth listPets"');
    expect(junit).not.toContain('<failure');
    expect(await readFile(join(run.reportDir, 'conformance-report.html'), 'utf8')).toContain('conformance: passed');
    expect(await readFile(join(run.reportDir, 'conformance-summary.md'), 'utf8')).toMatch(/10 passed, 0 failed, 0 skipped/);
    expect(run.output).toMatch(/10 passed, 0 failed, 0 skipped/);
  });

  it('passes a deployment that makes other legal choices, and reports its open choices as warnings', async () => {
    const legal = await deployment(legalChoices.transform, legalChoices.mockOptions);
    const run = await runCli(['--base-url', legal.baseUrl, '--probe-rate-limit'], { PETS_API_KEY: 'demo-pro' });
    expect(run.code, run.output).toBe(0);
    const report = await run.report();
    expect(report.summary.failed).toBe(0);
    expect(report.summary.warnings).toBeGreaterThan(0);
  });

  it('makes a default run of under 60 requests, with a User-Agent and a run id on each, and skips the probe', async () => {
    const seen: Req[] = [];
    const d = await deployment((req, forward) => {
      seen.push(req);
      return forward(req);
    });
    const run = await runCli(['--base-url', d.baseUrl, '--api-key', 'demo-free']);
    expect(run.code, run.output).toBe(0);
    const report = await run.report();
    expect(seen.length).toBe(report.requests.total);
    // The README promises these numbers.
    expect(report.requests).toEqual({ total: 41, withKey: 25, withoutKey: 16 });
    expect(new Set(seen.map((r) => r.headers['user-agent']))).toEqual(new Set([expect.stringMatching(/^pets-conformance\/\d+\.\d+\.\d+$/)]));
    expect(new Set(seen.map((r) => r.headers['x-conformance-run-id']))).toEqual(new Set([report.runId]));
    const probe = report.checks.find((c) => c.id === 'rate-limit-probe')!;
    expect(probe.status).toBe('skipped');
    expect(probe.operations[0]?.reason).toMatch(/--probe-rate-limit/);
    const junit = await readFile(join(run.reportDir, 'conformance-junit.xml'), 'utf8');
    expect(junit).toMatch(/name="rate-limit-probe listPets"[^>]*>\s*<skipped message="[^"]*--probe-rate-limit[^"]*"\/>/);
    expect(run.output).toContain('SKIP rate-limit-probe');
  });

  it('sends only GET requests with --read-only and reports create-pet skipped', async () => {
    const methods = new Set<string>();
    const d = await deployment((req, forward) => {
      methods.add(req.method);
      return forward(req);
    });
    const run = await runCli(['--base-url', d.baseUrl, '--api-key', 'demo-pro', '--read-only']);
    expect(run.code, run.output).toBe(0);
    expect([...methods]).toEqual(['GET']);
    expect((await run.report()).requests).toEqual({ total: 27, withKey: 15, withoutKey: 12 });
    expect(await d.mock.mock.store.count()).toBe(60);
    const report = await run.report();
    expect(report.checks.find((c) => c.id === 'create-pet')?.status).toBe('skipped');
    expect(report.checks.find((c) => c.id === 'auth')?.operations.find((o) => o.operationId === 'createPet')?.status).toBe('skipped');
  });

  it('runs only the checks named by --checks, and leaves out --exclude-checks', async () => {
    const d = await deployment();
    const only = await runCli(['--base-url', d.baseUrl, '--api-key', 'demo-pro', '--checks', 'pagination,status-codes']);
    expect((await only.report()).checks.map((c) => c.id)).toEqual(['pagination', 'status-codes']);
    const without = await runCli(['--base-url', d.baseUrl, '--api-key', 'demo-pro', '--exclude-checks', 'create-pet', '--exclude-checks', 'auth']);
    expect((await without.report()).checks.map((c) => c.id)).not.toContain('create-pet');
    expect((await without.report()).checks.map((c) => c.id)).not.toContain('auth');
  });

  it('never writes the API key into its reports or output', async () => {
    const d = await deployment((req, forward) => forward(req), { keys: [{ key: 'secret-key-4821', plan: 'pro' }] });
    const run = await runCli(['--base-url', d.baseUrl], { PETS_API_KEY: 'secret-key-4821' });
    expect(run.code, run.output).toBe(0);
    for (const file of ['conformance-junit.xml', 'conformance-report.json', 'conformance-report.html', 'conformance-summary.md']) {
      expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain('secret-key-4821');
    }
    expect(run.output).not.toContain('secret-key-4821');
  });
});

describe.concurrent('pets-conformance when it cannot run', () => {
  it('exits 2 when the target is unreachable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const run = await runCli(['--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', 'demo-pro']);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('exits 2 when the base URL does not answer like this API', async () => {
    const server = createServer((_, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const run = await runCli(['--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--api-key', 'demo-pro']);
      expect(run.code).toBe(2);
      expect(run.output).toMatch(/does not answer like the Pet Adoption API.*404.*\/v1/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    [['--base-url', 'http://127.0.0.1:1/v1'], /no API key/],
    [['--api-key', 'x'], /no base URL/],
    [['--base-url', 'not a url', '--api-key', 'x'], /absolute http or https URL/],
    [['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x', '--checks', 'nonsense'], /Unknown check nonsense/],
    [['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x', '--timeout', 'soon'], /whole number/],
    [['--frobnicate'], /unknown option/],
  ])('exits 2 with a one-line reason for %j', async (args, reason) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(reason);
  });

  it('documents every option in --help and lists the checks', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const option of ['--base-url', '--api-key', '--read-only', '--probe-rate-limit', '--report-dir', '--checks', '--exclude-checks', '--timeout', '--seed', 'PETS_API_KEY', 'PETS_BASE_URL']) {
      expect(help.output).toContain(option);
    }
    const list = await runCli(['--list-checks']);
    for (const id of checkIds) expect(list.output).toContain(id);
  });
});
