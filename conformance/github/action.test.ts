import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';

interface Step { id?: string; name?: string; uses?: string; if?: string; shell?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }
interface Action { runs: { using: string; steps: Step[] }; inputs: Record<string, { required?: boolean; default?: string }>; outputs: Record<string, unknown> }

const action = async () => parse(await readFile(projectPath('action.yml'), 'utf8')) as Action;

describe('the GitHub Action (action.yml)', () => {
  it('is a composite action with the inputs the README documents', async () => {
    const { runs, inputs, outputs } = await action();
    expect(runs.using).toBe('composite');
    expect(Object.keys(inputs)).toEqual(expect.arrayContaining(['base-url', 'api-key', 'read-only', 'probe-rate-limit', 'checks', 'report-dir', 'args']));
    expect(inputs['base-url']?.required).toBe(true);
    expect(Object.keys(outputs)).toEqual(['exit-code', 'verdict', 'report-dir']);
    for (const step of runs.steps.filter((s) => s.run)) {
      expect(step.shell).toBe('bash');
      // Inputs reach scripts through env only: `${{ inputs.x }}` inside a script is a script injection.
      expect(step.run).not.toContain('${{');
    }
    const upload = runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toMatch(/always\(\)/);
    expect(upload?.with?.path).toBe('${{ inputs.report-dir }}');
  });

  describe('its run step', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'action-'));
      await mkdir(join(dir, 'dist/conformance'), { recursive: true });
      // Stands in for the suite: prints the arguments it got and exits with FAKE_EXIT.
      await writeFile(join(dir, 'dist/conformance/bin.js'), 'console.log(JSON.stringify(process.argv.slice(2))); process.exit(Number(process.env.FAKE_EXIT));');
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    async function runStep(inputs: Record<string, string>, exit: number) {
      const step = (await action()).runs.steps.find((s) => s.id === 'run')!;
      const env: Record<string, string> = { PATH: process.env.PATH!, ACTION_PATH: dir, GITHUB_OUTPUT: join(dir, 'output'), FAKE_EXIT: String(exit) };
      for (const [name, value] of Object.entries(step.env!)) {
        const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)?.[1];
        if (input) env[name] = inputs[input] ?? '';
      }
      const child = spawn('bash', ['-e', '-c', step.run!], { env, cwd: dir });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { code, stdout, output: existsSync(env.GITHUB_OUTPUT!) ? await readFile(env.GITHUB_OUTPUT!, 'utf8') : '' };
    }

    it('turns the inputs into options, splitting args like a shell without running anything in them', async () => {
      const run = await runStep({
        'base-url': 'http://127.0.0.1:1/v1', 'api-key': 'k-1', 'read-only': 'true', 'probe-rate-limit': 'false', checks: 'auth,pagination', 'report-dir': 'out',
        args: `--config "my conf.yml" --header 'X-Tenant: acme' $(touch pwned) \`touch pwned2\``,
      }, 0);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('::add-mask::k-1');
      const args = JSON.parse(run.stdout.split('\n').find((l) => l.startsWith('['))!);
      expect(args).toEqual(['--report-dir', 'out', '--read-only', '--checks', 'auth,pagination', '--config', 'my conf.yml', '--header', 'X-Tenant: acme', '$(touch', 'pwned)', '`touch', 'pwned2`']);
      expect(existsSync(join(dir, 'pwned'))).toBe(false);
      expect(existsSync(join(dir, 'pwned2'))).toBe(false);
      expect(run.output).toBe('exit-code=0\nverdict=passed\n');
    });

    it.each([[1, 'failed'], [2, 'cannot-run']])('fails the step with the suite\'s exit code %i and says %s', async (exit, verdict) => {
      const run = await runStep({ 'base-url': 'http://x/v1', 'api-key': 'k', 'report-dir': 'out' }, exit);
      expect(run.code).toBe(exit);
      expect(run.output).toBe(`exit-code=${exit}\nverdict=${verdict}\n`);
    });
  });
});
