import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../common/cliIo.ts';
import { projectPath } from '../../common/projectRoot.ts';
import { conformanceProgram } from '../cli.ts';
import type { RunReport } from '../runReport.ts';
import { startDeployment, type Deployment } from '../testing/deployment.ts';
import { faults } from '../testing/faults.ts';
import type { UsageFile } from '../../common/usage/clientUsage.ts';
import { actionInputs, hostInputs, inputVariable } from './actionInputs.ts';
import { actionMain } from './actionMain.ts';

interface Step { id?: string; uses?: string; if?: string; shell?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }
interface Action { runs: { using: string; steps: Step[] }; inputs: Record<string, { required?: boolean; default?: string; description: string }>; outputs: Record<string, unknown> }

const action = async () => parse(await readFile(projectPath('action.yml'), 'utf8')) as Action;

let deployment: Deployment;
beforeAll(async () => {
  deployment = await startDeployment();
});
afterAll(() => deployment.close());

/** The action's program in-process, with these inputs as action.yml would pass them, and these files in its workspace. */
async function runAction(inputs: Record<string, string>, files: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'action-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  let stdout = '';
  let stderr = '';
  const env: Record<string, string> = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
  for (const [name, value] of Object.entries({ 'report-dir': 'reports', ...inputs })) env[name === 'INPUTS_JSON' ? name : inputVariable(name)] = value;
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd: dir };
  const code = await actionMain(io);
  const report = JSON.parse(await readFile(join(dir, 'reports', 'conformance-report.json'), 'utf8')) as RunReport;
  const output = await readFile(join(dir, 'output'), 'utf8');
  const summary = await readFile(join(dir, 'summary.md'), 'utf8').catch(() => '');
  await rm(dir, { recursive: true, force: true });
  return { code, stdout, stderr, report, output, summary };
}

describe('the GitHub Action (action.yml)', () => {
  it('declares an input for every suite option it passes on, and passes each to its step as INPUT_<NAME>', async () => {
    const { runs, inputs, outputs } = await action();
    expect(runs.using).toBe('composite');
    expect(Object.keys(inputs).sort()).toEqual([...actionInputs.map((i) => i.name), ...hostInputs].sort());
    expect(Object.keys(outputs)).toEqual(['exit-code', 'verdict', 'report-dir']);
    const step = runs.steps.find((s) => s.id === 'run')!;
    expect(step.env).toEqual({ ...Object.fromEntries(actionInputs.map((i) => [inputVariable(i.name), `\${{ inputs.${i.name} }}`])), INPUTS_JSON: '${{ toJSON(inputs) }}' });
    // Nothing installed, nothing compiled: the committed bundle runs as it is.
    expect(step.run).toBe('node "$GITHUB_ACTION_PATH/action/conformance.mjs"');
    for (const s of runs.steps.filter((s) => s.run)) expect(s.shell).toBe('bash');
    const upload = runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toMatch(/always\(\)/);
    expect(upload?.with?.path).toBe('${{ inputs.report-dir }}');
  });

  it('has every input in the CI guide\'s table', async () => {
    const guide = await readFile(projectPath('docs/ci.md'), 'utf8');
    for (const name of Object.keys((await action()).inputs)) expect(guide, name).toMatch(new RegExp(`^\\| \`${name}\`( / \`[a-z-]+\`)? \\||\\| \`[a-z-]+\` / \`${name}\` \\|`, 'm'));
  });

  it('names the CLI option each input stands for, and the CLI has that option', async () => {
    const { inputs } = await action();
    const longs = conformanceProgram({ stdout: { write: () => true }, stderr: { write: () => true } }).options.map((o) => o.long);
    for (const { name, kind, target } of actionInputs) {
      if (kind === 'secret' || kind === 'args') continue;
      expect(longs, name).toContain(target);
      expect(inputs[name]!.description, name).toContain(`(${target})`);
    }
  });
});

describe('the action\'s program', () => {
  it('runs the suite with the inputs as options, masks the keys, and writes its outputs', async () => {
    const run = await runAction({
      'base-url': deployment.baseUrl, 'api-key': 'demo-pro', 'read-only': 'True', depth: '3', seed: '5', checks: 'get-pet,pagination',
      headers: 'X-Tenant: acme\n\nX-Trace: on', args: `--header "X-Team: a b" --timeout 9000`,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('::add-mask::demo-pro');
    expect(run.report.options).toMatchObject({ readOnly: true, seed: 5, depth: '3' });
    expect([...run.report.options.checks].sort()).toEqual(['get-pet', 'pagination']);
    const sent = run.report.exchanges[0]!.requestHeaders;
    expect(sent).toMatchObject({ 'x-tenant': 'acme', 'x-trace': 'on', 'x-team': 'a b' });
    expect(JSON.stringify(run.report)).not.toContain('demo-pro');
    expect(run.output).toBe('exit-code=0\nverdict=passed\n');
  });

  it.each([
    [{ 'read-only': 'yes' }, /Input read-only: "yes" is not a boolean\. Give true or false\./],
    [{ depth: 'deep' }, /Input depth: "deep" is refused: "deep" is not a depth/],
    [{ 'max-body': '2MB' }, /Input max-body: "2MB" is refused: Give a whole number/],
    [{ checks: 'pagnation' }, /Input checks: "pagnation" is refused: Unknown check "pagnation"; did you mean "pagination"\? Known checks: auth, /],
    [{ args: '--header "X-Tenant: acme --seed 3' }, /Input args cannot be split into options: the double quote at character 10 is never closed/],
    [{ args: '--sead 3' }, /Input args: unknown option '--sead'[\s\S]*--seed/],
    [{ args: '--seed 3 --list-checks' }, /Input args: --list-checks only prints and checks nothing/],
    [{ args: '-Vh' }, /Input args: -Vh only prints and checks nothing, so the step would pass unchecked\. Remove it\./],
    [{ headers: 'X-Tenant: acme\nno colon here' }, /Input headers, line 2 \("no colon here"\), is refused: "no colon here" is not a header\. Give it as "Name: value", one a line, e\.g\. "X-Tenant: acme"\./],
    [{ headers: 'Authorization: Bearer x' }, /Input headers, line 1 \("Authorization: Bearer x"\), is refused: The Authorization header cannot be set this way\./],
    [{ 'fail-on': 'clients' }, /Input fail-on: "clients" is refused: .*contract, usage/],
    [{ 'fail-on': 'usage' }, /--fail-on usage needs --usage FILE/],
    [{ usage: 'missing.json' }, /--usage .*missing\.json cannot be read \(ENOENT\)/],
    [{ 'base-url': '' }, /Input base-url is empty/],
    [{ 'api-key': '' }, /Input api-key is empty\. Pass a repository secret/],
  ])('refuses %j with exit 2, naming the input, in its reports and outputs', async (bad, reason) => {
    const run = await runAction({ 'base-url': deployment.baseUrl, 'api-key': 'demo-pro', ...bad });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.report.verdict).toBe('cannot-run');
    expect(run.report.reason).toMatch(reason);
    expect(run.report.exchanges).toEqual([]);
    expect(run.output).toBe('exit-code=2\nverdict=cannot-run\n');
  });

  it('refuses an input action.yml does not declare with exit 2, naming the nearest declared one, before sending anything', async () => {
    const declared = Object.fromEntries(Object.keys((await action()).inputs).map((name) => [name, '']));
    const run = await runAction({ 'base-url': deployment.baseUrl, 'api-key': 'demo-pro', INPUTS_JSON: JSON.stringify({ ...declared, 'base-url': deployment.baseUrl, readonly: 'true' }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Input readonly is not an input of this action; did you mean "read-only"\? Fix its name under with:/);
    expect(run.report.exchanges).toEqual([]);
    expect(run.output).toBe('exit-code=2\nverdict=cannot-run\n');
  });

  it('masks each line of a multi-line key and refuses it with exit 2, never printing a line of it', async () => {
    const run = await runAction({ 'base-url': deployment.baseUrl, 'api-key': 'demo-pro\nsecond-line-7731\n' });
    expect(run.stdout.split('\n').slice(0, 2)).toEqual(['::add-mask::demo-pro', '::add-mask::second-line-7731']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Input api-key holds 2 lines; a key is one line\./);
    expect(run.stderr + JSON.stringify(run.report)).not.toMatch(/second-line-7731|demo-pro/);
  });

  it('judges a usage file (usage) and lets it set the exit code (fail-on: usage): a deployment whose statuses break the contract passes the step for a client that never reads status', async () => {
    const fault = faults.find((f) => f.name === 'sends a status outside PetStatus')!;
    const broken = await startDeployment(fault.transform);
    const usage: UsageFile = {
      format: 'pets-usage/1',
      source: 'hand',
      clients: [{ client: 'list-page', label: 'list-page', requests: 2, operations: [{ operationId: 'listPets', method: 'GET', path: '/pets', requests: 2, query: { limit: ['in-range'] }, body: [], reads: { 200: ['id', 'name'] }, statuses: [200] }] }],
    };
    try {
      const run = await runAction({ 'base-url': broken.baseUrl, 'api-key': 'demo-pro', checks: 'response-schema', depth: '0', usage: 'usage.json', 'fail-on': 'usage' }, { 'usage.json': JSON.stringify(usage) });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.output).toBe('exit-code=0\nverdict=passed\n');
      // The contract is still reported broken; the client is told first that it is safe, in the log and the job summary.
      expect(run.report.verdict).toBe('failed');
      expect(run.report.usage!.clients.map((c) => [c.client, c.verdict])).toEqual([['list-page', 'safe']]);
      expect(run.stdout).toMatch(/\nFor client list-page: safe for this client: the deployment breaks the contract/);
      expect(run.summary.split('\n')[2]).toMatch(/^\*\*For client list-page: safe for this client/);
      // The key is masked, and never in the log, the job summary or a report beside the usage.
      expect(run.stdout.split('\n')[0]).toBe('::add-mask::demo-pro');
      expect(run.stdout.split('\n').slice(1).join('\n') + run.stderr + run.summary + JSON.stringify(run.report)).not.toContain('demo-pro');
    } finally {
      await broken.close();
    }
  }, 60_000);

  it('fails the step with exit 1 and says failed when the deployment breaks the contract', async () => {
    const broken = await startDeployment(async (req, forward) => {
      const res = await forward(req);
      return res.status === 404 ? { ...res, status: 200 } : res;
    });
    try {
      const run = await runAction({ 'base-url': broken.baseUrl, 'api-key': 'demo-pro', checks: 'get-pet' });
      expect(run.code).toBe(1);
      expect(run.output).toBe('exit-code=1\nverdict=failed\n');
    } finally {
      await broken.close();
    }
  });
});
