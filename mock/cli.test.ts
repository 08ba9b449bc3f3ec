import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePets } from '../fixtures/generatePets.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return {
    child,
    output: () => output,
    exit: () => once(child, 'exit').then(([code]) => code as number | null),
    /** Resolves with the base URL once the mock says where it serves. */
    serving: () => new Promise<string>((resolve, reject) => {
      const look = () => {
        const match = /serving (http:\/\/[^ ]+\/v1)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout!.on('data', look);
      child.once('exit', (code) => reject(new Error(`mock exited with ${code}: ${output}`)));
    }),
  };
}

describe('the mock CLI', () => {
  it('lists every option in --help', async () => {
    const cli = run(['--help']);
    expect(await cli.exit()).toBe(0);
    for (const option of ['--port', '--host', '--seed', '--pets', '--fixtures', '--keys', '--cors-origin', '--no-cors', '--body-limit', '--log-level', '--ban-threshold', '--ban-seconds', '--default-status', '--no-control', '--latency', '--watch', '--state-file', '--request-log-size']) {
      expect(cli.output()).toContain(option);
    }
    expect(cli.output()).toMatch(/env:\s+PORT/);
    expect(cli.output()).toMatch(/env:\s+HOST/);
  });

  it('listens where PORT and HOST say, answers 401 without a key, logs one redacted line per request at debug and stops on SIGTERM', async () => {
    const cli = run(['--log-level', 'debug'], { PORT: '0', HOST: '127.0.0.1' });
    const base = await cli.serving();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await fetch(`${base}/pets`)).status).toBe(401);
    const ok = await fetch(`${base}/pets?limit=1`, { headers: { authorization: 'Bearer demo-enterprise' } });
    expect(ok.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    const lines = cli.output().split('\n').filter((l) => l.includes('"msg":"request"'));
    expect(lines).toHaveLength(2);
    expect(cli.output()).not.toContain('demo-enterprise');
    expect(lines[1]).toContain('"key":"demo…(15)"');
    cli.child.kill('SIGTERM');
    expect(await cli.exit()).toBe(0);
  });

  it('logs no line per request at the default level', async () => {
    const cli = run(['--port', '0']);
    const base = await cli.serving();
    await fetch(`${base}/pets`);
    await new Promise((r) => setTimeout(r, 100));
    expect(cli.output()).not.toContain('"msg":"request"');
    cli.child.kill('SIGTERM');
    expect(await cli.exit()).toBe(0);
  });

  it('generates the pets from --seed and --pets', async () => {
    const cli = run(['--port', '0', '--seed', '7', '--pets', '5']);
    const base = await cli.serving();
    const pets = await (await fetch(`${base}/pets?limit=100`, { headers: { authorization: 'Bearer demo-enterprise' } })).json();
    expect(pets).toEqual(generatePets({ seed: 7, count: 5 }));
    cli.child.kill('SIGTERM');
    expect(await cli.exit()).toBe(0);
  });

  it('refuses to start on an invalid fixtures file, naming the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pets-'));
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify([{ id: 1, name: 'Rex' }]));
    const cli = run(['--port', '0', '--fixtures', file]);
    expect(await cli.exit()).toBe(1);
    expect(cli.output()).toContain(file);
    expect(cli.output()).toMatch(/categoryId is required/);
  });

  it('still has the pets created before when restarted with the same --state-file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'pets-')), 'state.json');
    const first = run(['--port', '0', '--state-file', file]);
    const base = await first.serving();
    const headers = { authorization: 'Bearer demo-pro', 'content-type': 'application/json' };
    const created = await (await fetch(`${base}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Keeper', categoryId: 2 }) })).json();
    first.child.kill('SIGTERM');
    expect(await first.exit()).toBe(0);

    const second = run(['--port', '0', '--state-file', file]);
    const again = await second.serving();
    expect(await (await fetch(`${again}/pets/${created.id}`, { headers })).json()).toEqual(created);
    second.child.kill('SIGTERM');
    expect(await second.exit()).toBe(0);
  });

  it('serves the control API by default and not with --no-control', async () => {
    const on = run(['--port', '0']);
    const base = await on.serving();
    expect((await fetch(base.replace(/\/v1$/, '/__mock/clock'))).status).toBe(200);
    on.child.kill('SIGTERM');
    const off = run(['--port', '0', '--no-control']);
    const offBase = await off.serving();
    expect((await fetch(offBase.replace(/\/v1$/, '/__mock/clock'), { headers: { authorization: 'Bearer demo-pro' } })).status).toBe(404);
    off.child.kill('SIGTERM');
  });

  it('refuses a malformed --latency', async () => {
    const cli = run(['--latency', 'slow']);
    expect(await cli.exit()).toBe(1);
    expect(cli.output()).toMatch(/neither MS nor MIN-MAX/);
  });

  it('refuses a port that is not a number', async () => {
    const cli = run(['--port', 'abc']);
    expect(await cli.exit()).toBe(1);
    expect(cli.output()).toMatch(/whole number/);
  });
});
