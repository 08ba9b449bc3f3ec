import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIds } from './checks/index.ts';
import { main } from './cli.ts';
import { startDeployment, type Deployment } from './testing/deployment.ts';
import type { RunReport } from './runReport.ts';
import { runCli } from './testing/runCli.ts';
import { spawnCli } from './testing/spawnCli.ts';

/** Gives a test a deployment on 127.0.0.1 and closes it after, whatever happens. */
async function withDeployment(args: Parameters<typeof startDeployment>, test: (d: Deployment) => Promise<void>): Promise<void> {
  const d = await startDeployment(...args);
  try {
    await test(d);
  } finally {
    await d.close();
  }
}

// The command as CI runs it, over HTTP against a deployment on 127.0.0.1; main() in-process, but
// for the test that runs the bin itself.
describe.concurrent('pets-conformance, the command', () => {
  // --max-wait 0: the probe's retry once its 429's Retry-After has passed would wait on the wall
  // clock (the catalogues run it on the deployment's); this test is about the command and its reports.
  it('exits 0 against the mock over HTTP and writes the JUnit, JSON, HTML and Markdown reports', () => withDeployment([], async (mock) => {
    const run = await runCli(['--base-url', mock.baseUrl, '--api-key', 'demo-pro', '--probe-rate-limit', '--max-wait', '0']);
    expect(run.code, run.output).toBe(0);
    const report = await run.report();
    expect(report.verdict).toBe('passed');
    expect(report.checks.map((c) => [c.id, c.status])).toEqual(checkIds.map((id) => [id, 'passed']));
    expect(await readFile(join(run.reportDir, 'conformance-junit.xml'), 'utf8')).not.toContain('<failure');
    expect(await readFile(join(run.reportDir, 'conformance-report.html'), 'utf8')).toContain('conformance: passed');
    expect(await readFile(join(run.reportDir, 'conformance-summary.md'), 'utf8')).toMatch(new RegExp(`${checkIds.length} passed, 0 failed, 0 skipped`));
    expect(run.output).toMatch(new RegExp(`${checkIds.length} passed, 0 failed, 0 skipped`));
  }));

  it('runs as a process whose exit code is main()\'s: 1, with the failing check on its output, when the deployment breaks a rule', { timeout: 60_000 }, () => withDeployment([async (req, forward) => {
    const res = await forward(req);
    return res.status === 404 ? { ...res, status: 200 } : res;
  }], async (broken) => {
    const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
    const run = await spawnCli(['--base-url', broken.baseUrl, '--api-key', 'demo-pro', '--checks', 'get-pet', '--report-dir', reportDir]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('FAIL get-pet');
    const report = JSON.parse(await readFile(join(reportDir, 'conformance-report.json'), 'utf8')) as RunReport;
    expect(report.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['get-pet']);
  }));

  it('reads the key and the URL from PETS_API_KEY and PETS_BASE_URL, and never writes the key out', () => withDeployment([undefined, { keys: [{ key: 'secret-key-4821', plan: 'pro' }] }], async (d) => {
    const run = await runCli(['--checks', 'get-pet,pagination'], { PETS_API_KEY: 'secret-key-4821', PETS_BASE_URL: d.baseUrl });
    expect(run.code, run.output).toBe(0);
    for (const file of ['conformance-junit.xml', 'conformance-report.json', 'conformance-report.html', 'conformance-summary.md']) {
      expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain('secret-key-4821');
    }
    expect(run.output).not.toContain('secret-key-4821');
  }));

  // A deployment each: a run spends the address's keyless quota, which the second would wait out.
  it('holds the key to the plan --api-key-plan or PETS_API_KEY_PLAN names, and records the plan in the report', async () => {
    const args = (d: Deployment) => ['--base-url', d.baseUrl, '--api-key', 'demo-pro', '--checks', 'get-pet,rate-limit-accounting'];
    await withDeployment([], async (d) => {
      const right = await runCli([...args(d), '--api-key-plan', 'pro']);
      expect(right.code, right.output).toBe(0);
      expect((await right.report()).options.plans).toEqual({ key: 'pro' });
    });
    await withDeployment([], async (d) => {
      const wrong = await runCli(args(d), { PETS_API_KEY_PLAN: 'free' });
      expect(wrong.code, wrong.output).toBe(1);
      const accounting = (await wrong.report()).checks.find((c) => c.id === 'rate-limit-accounting')!;
      expect(JSON.stringify(accounting)).toMatch(/X-RateLimit-Limit 300 for a key of the Free plan \(--api-key-plan free\)/);
    });
  });

  it('exits 2 when the key is refused, says so in one line, and still writes reports saying why', () => withDeployment([], async (d) => {
    const run = await runCli(['--base-url', d.baseUrl, '--api-key', 'expired-key']);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/pets-conformance: The deployment refused the API key: .* answered 401\. Check --api-key/);
    const report = await run.report();
    expect(report.verdict).toBe('cannot-run');
    expect(report.reason).toMatch(/refused the API key/);
    expect(report.checks).toEqual([]);
  }));

  it('exits 2 when the target is unreachable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const run = await runCli(['--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', 'demo-pro']);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+\/v1/);
  });
});

describe('pets-conformance, its arguments', () => {
  it.each([
    [['--base-url', 'http://127.0.0.1:1/v1'], /no API key/],
    [['--api-key', 'x'], /no base URL/],
    [['--base-url', 'not a url', '--api-key', 'x'], /absolute http or https URL/],
    [['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x', '--checks', 'nonsense'], /Unknown check "nonsense"/],
    [['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x', '--timeout', 'soon'], /whole number/],
    [['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x', '--depth', 'deep'], /"deep" is not a depth. Give quick, full or a whole number/],
    [['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x', '--api-key-plan', 'gold'], /--api-key-plan <plan>' argument 'gold' is invalid\. Allowed choices are free, pro, business, enterprise/],
    [['--frobnicate'], /unknown option/],
  ])('exits 2 with a one-line reason for %j', async (args, reason) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(reason);
  });

  it('refuses a PETS_API_KEY_PLAN that is no plan of the contract, naming the plans', async () => {
    const run = await runCli(['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x'], { PETS_API_KEY_PLAN: 'Gold' });
    expect(run).toMatchObject({ code: 2, output: expect.stringMatching(/PETS_API_KEY_PLAN: "Gold" is no plan of the contract\. Give one of free, pro, business, enterprise/) });
  });

  it('refuses a PETS_BASE_URL that is not a URL', async () => {
    const run = await runCli(['--api-key', 'x'], { PETS_BASE_URL: 'nowhere' });
    expect(run).toMatchObject({ code: 2, output: expect.stringMatching(/PETS_BASE_URL: Give an absolute http or https URL/) });
  });

  it('documents every option in --help and lists the checks', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const option of ['--base-url', '--api-key', '--read-only', '--probe-rate-limit', '--report-dir', '--checks', '--exclude-checks', '--timeout', '--seed', '--depth', '--max-wait', 'PETS_API_KEY', 'PETS_BASE_URL']) {
      expect(help.output).toContain(option);
    }
    const list = await runCli(['--list-checks']);
    expect(list.code).toBe(0);
    for (const id of checkIds) expect(list.output).toContain(id);
  });
});
