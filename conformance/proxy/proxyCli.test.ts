import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../common/cliIo.ts';
import { main } from '../cli.ts';
import { startDeployment, isGetPet, json, withJson, type Transform } from '../testing/deployment.ts';

/** `pets-conformance proxy …` in-process: resolves once it serves; `stop()` sends SIGTERM and resolves to the exit code. */
async function runProxy(args: string[], transform?: Transform, env: Record<string, string> = {}) {
  const deployment = await startDeployment(transform);
  const reportDir = await mkdtemp(join(tmpdir(), 'proxy-reports-'));
  const signals = new EventEmitter();
  let output = '';
  let serving!: (url: string) => void;
  const url = new Promise<string>((resolve) => (serving = resolve));
  const io: CliIo = { stdout: { write: (t: string) => (output += t) }, stderr: { write: (t: string) => (output += t) }, env, cwd: reportDir, signals, serving };
  const exit = main(['proxy', '--target', deployment.baseUrl, '--port', '0', '--report-dir', reportDir, ...args], io);
  const base = `${await url}/v1`;
  return {
    base,
    report: `${new URL(base).origin}/__proxy/report`,
    reportDir,
    output: () => output,
    async stop() {
      signals.emit('SIGTERM');
      const code = await exit;
      await deployment.close();
      return code;
    },
  };
}

const key = { authorization: 'Bearer demo-pro', 'content-type': 'application/json' };

describe('pets-conformance proxy', () => {
  it('serves until SIGTERM, then writes the reports without the key and exits 0 for a deployment that keeps the contract', async () => {
    const proxy = await runProxy(['--usage-out', 'usage.json']);
    const created = (await (await fetch(`${proxy.base}/pets`, { method: 'POST', headers: key, body: JSON.stringify({ name: 'Kiwi', categoryId: 4 }) })).json()) as { id: number };
    expect((await fetch(`${proxy.base}/pets/${created.id}`, { headers: key })).status).toBe(200);
    expect(await proxy.stop()).toBe(0);
    // --usage-out: the clients' usage, relative to the working directory, for pets-conformance --usage.
    const usage = JSON.parse(await readFile(join(proxy.reportDir, 'usage.json'), 'utf8')) as { clients: { operations: { operationId: string }[] }[] };
    expect(usage.clients[0]!.operations.map((o) => o.operationId)).toEqual(['createPet', 'getPet']);
    const files = await readdir(proxy.reportDir);
    expect(files).toEqual(expect.arrayContaining(['conformance-summary.md', 'conformance-report.json', 'conformance-junit.xml', 'conformance-ctrf.json', 'conformance.har', 'conformance-report.html']));
    for (const file of files) expect(await readFile(join(proxy.reportDir, file), 'utf8'), file).not.toContain('demo-pro');
    expect(proxy.output()).toMatch(/2 exchanges forwarded, 2 judged; 0 failures/);
  });

  it('exits 1 when a failure was seen, and 2 when nothing could be judged', async () => {
    const broken = await runProxy([], async (req, forward) => {
      const res = await forward(req);
      return isGetPet(req) && res.status === 200 ? withJson(res, { ...(json(res) as object), categoryId: 9 }) : res;
    });
    const created = (await (await fetch(`${broken.base}/pets`, { method: 'POST', headers: key, body: JSON.stringify({ name: 'Kiwi', categoryId: 4 }) })).json()) as { id: number };
    await fetch(`${broken.base}/pets/${created.id}`, { headers: key });
    expect(await broken.stop()).toBe(1);
    const report = JSON.parse(await readFile(join(broken.reportDir, 'conformance-report.json'), 'utf8'));
    expect(report.checks.find((c: { id: string }) => c.id === 'data-integrity').status).toBe('failed');

    const idle = await runProxy([]);
    expect(await idle.stop()).toBe(2);
  });

  it('guards its report with the mock\'s control token, from --control-token or PETS_MOCK_CONTROL_TOKEN', async () => {
    for (const [args, env] of [[['--control-token', 'flag-token'], {}], [[], { PETS_MOCK_CONTROL_TOKEN: 'flag-token' }]] as const) {
      const proxy = await runProxy([...args], undefined, env);
      expect((await fetch(proxy.report)).status).toBe(401);
      const refused = await fetch(proxy.report, { headers: { authorization: 'Bearer other-token' } });
      expect(await refused.json()).toMatchObject({ code: 'CONTROL_TOKEN_INVALID', status: 401 });
      expect((await fetch(proxy.report, { headers: { authorization: 'Bearer flag-token' } })).status).toBe(200);
      expect(proxy.output()).toMatch(/__proxy\/report \(with the control token\)/);
      expect(proxy.output()).not.toContain('flag-token');
      expect(await proxy.stop()).toBe(2);
    }
  });

  it('refuses a control token set but empty, or one a bearer token cannot carry, with exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'proxy-token-'));
    let output = '';
    const io = (env: Record<string, string>): CliIo => ({ stdout: { write: (t: string) => (output += t) }, stderr: { write: (t: string) => (output += t) }, env, cwd: dir });
    expect(await main(['proxy', '--target', 'http://127.0.0.1:9/v1', '--port', '0'], io({ PETS_MOCK_CONTROL_TOKEN: '' }))).toBe(2);
    expect(output).toMatch(/PETS_MOCK_CONTROL_TOKEN is set but empty, which would leave the report open to everyone/);
    expect(await main(['proxy', '--target', 'http://127.0.0.1:9/v1', '--port', '0', '--control-token', 'quote"d'], io({}))).toBe(2);
    expect(output).toMatch(/The token \(7 characters\) has characters a bearer token cannot carry/);
  });

  it('refuses a missing or bad target with exit 2 and a reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'proxy-bad-'));
    let output = '';
    const io: CliIo = { stdout: { write: (t: string) => (output += t) }, stderr: { write: (t: string) => (output += t) }, env: {}, cwd: dir };
    expect(await main(['proxy', '--port', '0'], io)).toBe(2);
    expect(output).toMatch(/no target\. Give --target/);
    expect(await main(['proxy', '--target', 'ftp://x/v1'], io)).toBe(2);
    expect(output).toMatch(/http or https URL/);
  });
});
