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
    for (const option of ['--port', '--host', '--seed', '--pets', '--fixtures', '--keys', '--cors-origin', '--no-cors', '--body-limit', '--log-level', '--ban-threshold', '--ban-seconds']) {
      expect(cli.output()).toContain(option);
    }
    expect(cli.output()).toMatch(/env:\s+PORT/);
    expect(cli.output()).toMatch(/env:\s+HOST/);
  });

  it('listens where PORT and HOST say, answers 401 without a key, logs one redacted line per request and stops on SIGTERM', async () => {
    const cli = run([], { PORT: '0', HOST: '127.0.0.1' });
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

  it('refuses a port that is not a number', async () => {
    const cli = run(['--port', 'abc']);
    expect(await cli.exit()).toBe(1);
    expect(cli.output()).toMatch(/whole number/);
  });
});
