import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../common/cliIo.ts';
import { main } from '../cli.ts';
import { startDeployment } from '../testing/deployment.ts';
import { legalChoices } from '../testing/legalChoices.ts';
import type { DriftResult } from './classifyDrift.ts';

async function runDriftCli(args: string[], env: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'drift-'));
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd: dir };
  const code = await main(['drift', '--report-dir', 'reports', ...args], io);
  const read = (name: string) => readFile(join(dir, 'reports', name), 'utf8');
  return { code, stdout, stderr, dir, read, result: async () => JSON.parse(await read('drift-report.json')) as DriftResult };
}

describe('pets-conformance drift', { timeout: 90_000 }, () => {
  it('against the mock: prints the summary first, writes the three reports and the profile, and keeps the keys out of them', async () => {
    const deployment = await startDeployment(legalChoices.transform, { ...legalChoices.mockOptions, keys: [{ key: 'staging-key-0123456789', plan: 'pro' }] });
    try {
      const run = await runDriftCli(['--base-url', deployment.baseUrl, '--against', 'mock', '--write-profile', 'staging.profile.json'], { PETS_API_KEY: 'staging-key-0123456789' });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Drift: A \(http:\/\/127\.0\.0\.1:\d+\/v1\) against mock/);
      expect(run.stdout).toMatch(/open choice\(s\) made differently/);
      const result = await run.result();
      expect(result.choices.map((c) => c.field)).toContain('listOrder');
      for (const name of ['drift-report.json', 'drift-report.html', 'drift-summary.md']) expect(await run.read(name)).not.toContain('staging-key-0123456789');
      expect(await run.read('drift-summary.md')).toContain('## Open choices made differently');
      const profile = JSON.parse(await readFile(join(run.dir, 'staging.profile.json'), 'utf8'));
      expect(profile).toMatchObject({ defaultStatus: null, listOrder: 'oldest-first', errors: { invalidQuery: { status: 422, code: 'err.invalid_query_parameter' } } });

      // Calibrated: the mock given that profile shows no open-choice difference but the one it cannot make (the
      // variant's lists carry `createdAt` where its created pets do not), which --fail-on-drift still fails.
      const calibrated = await runDriftCli(['--base-url', deployment.baseUrl, '--against', 'mock', '--profile', join(run.dir, 'staging.profile.json'), '--fail-on-drift'], { PETS_API_KEY: 'staging-key-0123456789' });
      expect((await calibrated.result()).choices.map((c) => [c.field, c.mockCannotMake !== undefined])).toEqual([['extraPetFields', true]]);
      expect(calibrated.code).toBe(1);
      expect(calibrated.stdout).toMatch(/The mock cannot make 1 of A's choices: extraPetFields/);
    } finally {
      await deployment.close();
    }
  });

  it('exits 2 without a key or something to compare with, and refuses a profile that is not one', async () => {
    expect((await runDriftCli(['--base-url', 'http://127.0.0.1:9/v1', '--against', 'mock'])).code).toBe(2);
    expect((await runDriftCli(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k'])).stderr).toMatch(/--against/);
    const dir = await mkdtemp(join(tmpdir(), 'drift-profile-'));
    await writeFile(join(dir, 'bad.json'), '{"listOrder":"random"}');
    const bad = await runDriftCli(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--against', 'mock', '--profile', join(dir, 'bad.json')]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/not a deployment profile.*listOrder/)]);
  });

  it('says plainly in its help that --probe-ban gets the keys banned, and refuses a body cap that is not a whole number', async () => {
    const help = await runDriftCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--probe-ban GETS EACH SIDE'S KEY BANNED for the length of its ban/);
    expect(help.stdout).toMatch(/--probe-max-body <bytes>/);
    expect((await runDriftCli(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--against', 'mock', '--probe-max-body', 'lots'])).code).toBe(2);
  });
});
