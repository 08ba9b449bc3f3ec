// The CLI's side of the reports: files on disk on every exit code, GitHub Actions output, --config, --header.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateStrict } from 'ctrf';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { configSchemaPath } from '../config/loadConfigFile.ts';
import { startDeployment, type Deployment, type Req } from '../testing/deployment.ts';
import { severalFaults } from './testing/severalFaults.ts';
import { runCli } from '../testing/runCli.ts';
import { reportFiles } from './writeReports.ts';

const key = 'secret-key-4821';

async function deployment(...args: Parameters<typeof startDeployment>): Promise<Deployment> {
  const d = await startDeployment(args[0], { keys: [{ key, plan: 'pro' }], ...args[1] });
  onTestFinished(() => d.close());
  return d;
}

describe('pets-conformance reports and CI output', () => {
  let dir: string;
  let summaryFile: string;
  const read = (name: string) => readFile(join(dir, 'reports', name), 'utf8');
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-reports-'));
    summaryFile = join(dir, 'step-summary.md');
    await writeFile(summaryFile, '');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  // A whole run over HTTP in real time, its failing sequences shrunk: a minute on a busy machine.
  it('fails a faulty deployment with ::error lines, a job summary, and six reports that hold no key', { timeout: 60_000 }, async () => {
    const d = await deployment(severalFaults);
    const run = await runCli(['--base-url', d.baseUrl, '--report-dir', join(dir, 'reports'), '--timeout', '60000'], { PETS_API_KEY: key, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^::error title=response-schema::(\S+: )?GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets answered 200 with a body that does not match the spec/m);
    expect(run.stdout).toMatch(/^::error title=content-type::/m);
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary).toMatch(/^# Pet Adoption API conformance: ❌ failed/);
    expect(summary).toContain('**`response-schema`**');

    expect((await readdir(join(dir, 'reports'))).sort()).toEqual(Object.values(reportFiles).sort());
    const ctrf = JSON.parse(await read(reportFiles.ctrf));
    expect(() => validateStrict(ctrf)).not.toThrow();
    const report = JSON.parse(await read(reportFiles.json));
    const har = JSON.parse(await read(reportFiles.har));
    expect(har.log.version).toBe('1.2');
    // Every answer, and every try that got none (a slow machine may time out a request, which the suite retries).
    expect(har.log.entries).toHaveLength(report.requests.total + (report.unanswered?.length ?? 0));
    expect(await read(reportFiles.junit)).toMatch(/<failure message="[^"]+" type="high"><!\[CDATA\[\[failure\] [\s\S]*Reproduce: curl -i /);
    for (const file of Object.values(reportFiles)) expect(await read(file), file).not.toContain(key);
    expect(run.stdout + run.stderr + summary).not.toContain(key);
  });

  it('exits 2 on a refused key, with the reason in every report and in the job summary', async () => {
    const d = await deployment();
    const run = await runCli(['--base-url', d.baseUrl, '--api-key', 'expired-key', '--report-dir', join(dir, 'reports')], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/refused the API key: GET .* answered 401/);
    expect(run.stdout).toMatch(/^::error title=pets-conformance could not run::The suite could not judge .*refused the API key/m);
    expect(await readFile(summaryFile, 'utf8')).toMatch(/could not run\n\n\*\*Could not judge `http:\/\/127\.0\.0\.1:\d+\/v1`:\*\* The deployment refused the API key/);
    expect(await read(reportFiles.markdown)).toContain('refused the API key');
    expect(await read(reportFiles.html)).toContain('refused the API key');
    expect(await read(reportFiles.junit)).toMatch(/<error message="The suite could not judge [^"]*refused the API key/);
    const ctrf = JSON.parse(await read(reportFiles.ctrf));
    expect(() => validateStrict(ctrf)).not.toThrow();
    expect(ctrf.results.tests[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('refused the API key') });
  });

  it('exits 2 with reports and a job summary when it cannot even start', async () => {
    const run = await runCli(['--report-dir', join(dir, 'reports')], { GITHUB_STEP_SUMMARY: summaryFile });
    expect(run.code).toBe(2);
    expect(await readFile(summaryFile, 'utf8')).toContain('no base URL. Give --base-url, set PETS_BASE_URL, or set baseUrl in the --config file.');
    expect(await read(reportFiles.markdown)).toContain('no base URL');
  });

  it('refuses an Authorization header, saying the key has its own option', async () => {
    // --report-dir first: commander stops at the refused header, so what follows it is never read.
    const run = await runCli(['--report-dir', join(dir, 'reports'), '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '-H', 'Authorization: Bearer k']);
    expect(await read(reportFiles.markdown)).toContain('The Authorization header cannot be set');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/The Authorization header cannot be set with --header\. The API key has its own option/);
  });

  it('takes its options from --config, ${NAME} from the environment, headers from the file and --header on every request', async () => {
    const seen: Req[] = [];
    const d = await deployment((req, forward) => {
      seen.push(req);
      return forward(req);
    });
    await writeFile(join(dir, 'conformance.yml'), [
      `# yaml-language-server: $schema=${configSchemaPath}`,
      'baseUrl: ${STAGING_URL}',
      'apiKey: ${STAGING_KEY}',
      'readOnly: true',
      'reportDir: reports',
      'headers:',
      '  X-Tenant: acme',
      '  X-Gateway-Token: ${GATEWAY_TOKEN}',
    ].join('\n'));
    // Run from the project root: the file's reportDir is relative to the file, not to where the suite runs.
    const run = await runCli(['--config', join(dir, 'conformance.yml'), '--header', 'X-From-Cli: yes'], { STAGING_URL: d.baseUrl, STAGING_KEY: key, GATEWAY_TOKEN: 'gw-secret-77' }, { reportDir: null });
    expect(run.code, run.stderr).toBe(0);
    expect(seen.length).toBeGreaterThan(10);
    expect(new Set(seen.map((r) => r.method))).toEqual(new Set(['GET']));
    for (const req of seen) expect(req.headers).toMatchObject({ 'x-tenant': 'acme', 'x-gateway-token': 'gw-secret-77', 'x-from-cli': 'yes' });
    const report = JSON.parse(await read(reportFiles.json));
    expect(report.requests.total).toBe(seen.length);
    for (const file of Object.values(reportFiles)) {
      const text = await read(file);
      expect(text, file).not.toContain('gw-secret-77');
      expect(text, file).not.toContain(key);
    }
    expect(await read(reportFiles.har)).toContain('$GATEWAY_TOKEN');
  });

  it('documents --config and --header, and its config schema names every long option', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--config <file>');
    expect(help.stdout).toContain('-H, --header <header>');
    const options = [...help.stdout.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]!).filter((o) => !['help', 'version', 'config', 'list-checks', 'header'].includes(o));
    const camel = new Set(options.map((o) => o.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())));
    camel.add('headers');
    const schema = JSON.parse(await readFile(configSchemaPath, 'utf8'));
    expect(new Set(Object.keys(schema.properties).filter((k) => k !== '$schema'))).toEqual(camel);
  });
});
