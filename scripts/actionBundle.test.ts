// The GitHub Action as a workflow runs it: the committed bundle (action/conformance.mjs), run by
// action.yml's step with plain node from a checkout with no node_modules, and that bundle the one
// scripts/buildAction.mjs builds from today's sources. Beside the package tier, as the release
// workflow checks the bundle it attaches; the action's program itself (its inputs as options, its
// refusals, its outputs) is proved in process by conformance/github/action.test.ts in `npm test`.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { startDeployment, type Deployment } from '../conformance/testing/deployment.ts';

interface Step { id?: string; run?: string; env?: Record<string, string> }
interface Action { runs: { steps: Step[] }; inputs: Record<string, { default?: string }> }

const action = async () => parse(await readFile(projectPath('action.yml'), 'utf8')) as Action;

let deployment: Deployment;
beforeAll(async () => {
  deployment = await startDeployment();
});
afterAll(() => deployment.close());

describe('the action\'s step as action.yml declares it', () => {
  it('runs the committed bundle with plain node from a checkout that has no node_modules', { timeout: 60_000 }, async () => {
    const step = (await action()).runs.steps.find((s) => s.id === 'run')!;
    // The action's checkout, as far as the bundle reads it: everything else comes bundled.
    const checkout = await mkdtemp(join(tmpdir(), 'action-checkout-'));
    for (const file of ['action/conformance.mjs', 'spec/openapi.yaml', 'package.json', 'conformance/config/conformance-config.schema.json']) {
      await mkdir(dirname(join(checkout, file)), { recursive: true });
      await copyFile(projectPath(file), join(checkout, file));
    }
    const workspace = await mkdtemp(join(tmpdir(), 'workspace-'));
    // An Enterprise key: its window never makes the run wait, whatever ran against the deployment before.
    const inputs: Record<string, string> = { 'base-url': deployment.baseUrl, 'api-key': 'demo-enterprise', checks: 'get-pet', 'report-dir': 'out' };
    const env: Record<string, string> = { PATH: process.env.PATH!, GITHUB_ACTION_PATH: checkout, GITHUB_OUTPUT: join(workspace, 'output') };
    // As the runner fills the step's env: each `inputs.<name>`, and `toJSON(inputs)` with every declared input (defaults too) and any given.
    const declared = Object.fromEntries(Object.entries((await action()).inputs).map(([name, i]) => [name, i.default ?? '']));
    for (const [name, value] of Object.entries(step.env!)) env[name] = value.includes('toJSON(inputs)') ? JSON.stringify({ ...declared, ...inputs }) : inputs[/inputs\.([a-z0-9-]+)/.exec(value)![1]!] ?? '';
    const child = spawn('bash', ['-e', '-c', step.run!], { env, cwd: workspace });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output).toBe(0);
    expect(await readFile(join(workspace, 'output'), 'utf8')).toBe('exit-code=0\nverdict=passed\n');
    expect(JSON.parse(await readFile(join(workspace, 'out', 'conformance-report.json'), 'utf8')).verdict).toBe('passed');
    await rm(checkout, { recursive: true, force: true });
    await rm(workspace, { recursive: true, force: true });
  });

  it('is the bundle scripts/buildAction.mjs builds from the sources today', async () => {
    // @ts-expect-error: a plain ES module script, without types.
    const { buildActionBundle } = await import('./buildAction.mjs');
    const committed = await readFile(projectPath('action/conformance.mjs'), 'utf8');
    // A failure here means the sources changed since the bundle was built: run `npm run build:action` and commit it.
    expect((await buildActionBundle()) === committed).toBe(true);
  });
});
