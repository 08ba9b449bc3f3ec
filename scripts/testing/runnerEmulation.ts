// A GitHub workflow's jobs run as a hosted runner runs them, on this machine: each job in a fresh
// workspace, its `run:` steps in `bash --noprofile --norc -eo pipefail` with the runner's variables
// (GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY, RUNNER_TEMP, CI, …) and every
// `${{ }}` substituted (docs/workflowExpressions.ts), and a composite action's steps with its
// inputs (declared defaults, then the `with:` given) and GITHUB_ACTION_PATH. Three actions of
// GitHub's own are emulated: actions/checkout puts the user's repository in the workspace,
// actions/setup-node is a no-op (the runner's node is this one), actions/upload-artifact records
// what it would upload and fails the step when its path holds nothing. Any other action must be
// resolved to a folder by the caller (this repository's action: a clone at a ref, as a runner
// downloads it), else the step fails naming it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { condition, substitute, type ExpressionContext, type Value } from '../../docs/workflowExpressions.ts';

type Step = { id?: string; name?: string; if?: string | boolean; run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; shell?: string; 'working-directory'?: string };
type Job = { needs?: string | string[]; env?: Record<string, unknown>; steps: Step[] };

export interface RunnerSetup {
  /** The environment the runner's processes start with (PATH, HOME, …). */
  env: Record<string, string>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  /** What actions/checkout puts in a workspace. */
  checkout(workspace: string): Promise<void>;
  /** The folder of an action named by `uses:` (other than GitHub's three above), or undefined. */
  action(uses: string): string | undefined;
}

export interface StepResult {
  step: string;
  outcome: 'success' | 'failure' | 'skipped';
  /** The exit code of a run step (of the failing step, for an action). */
  code?: number | null;
  outputs: Record<string, string>;
  log: string;
}

export interface JobResult {
  job: string;
  succeeded: boolean;
  steps: StepResult[];
  /** What actions/upload-artifact would upload: artifact name to the files found. */
  artifacts: Record<string, string[]>;
  workspace: string;
}

/** Every job of the workflow, each after the jobs it needs; a job whose needs failed is not run. */
export async function runWorkflow(text: string, setup: RunnerSetup): Promise<JobResult[]> {
  const workflow = parseYaml(text) as { env?: Record<string, unknown>; jobs: Record<string, Job> };
  const results: JobResult[] = [];
  const done = new Map<string, boolean>();
  const pending = Object.entries(workflow.jobs);
  while (pending.length > 0) {
    const index = pending.findIndex(([, job]) => [job.needs ?? []].flat().every((need) => done.has(need)));
    if (index < 0) throw new Error(`Jobs ${pending.map(([name]) => name).join(', ')} need jobs that do not exist.`);
    const [name, job] = pending.splice(index, 1)[0]!;
    if (![job.needs ?? []].flat().every((need) => done.get(need))) {
      done.set(name, false);
      continue;
    }
    const result = await runJob(name, job, workflow.env ?? {}, setup);
    done.set(name, result.succeeded);
    results.push(result);
  }
  return results;
}

async function runJob(name: string, job: Job, workflowEnv: Record<string, unknown>, setup: RunnerSetup): Promise<JobResult> {
  const workspace = await mkdtemp(join(tmpdir(), `runner-${name}-`));
  const temp = await mkdtemp(join(tmpdir(), 'runner-temp-'));
  const result: JobResult = { job: name, succeeded: true, steps: [], artifacts: {}, workspace };
  const jobEnv: Record<string, string> = {};
  const steps: Record<string, Value> = {};
  const context = (): ExpressionContext => ({
    failed: !result.succeeded,
    contexts: { secrets: setup.secrets, vars: setup.vars, env: { ...jobEnv }, steps, github: { workspace, event_name: 'push', ref: 'refs/heads/main' }, runner: { temp, os: 'Linux' } },
  });
  for (const [key, value] of Object.entries({ ...workflowEnv, ...(job.env ?? {}) })) jobEnv[key] = substitute(String(value), context());
  const runner = { workspace, temp, env: jobEnv, setup };
  for (const [n, step] of job.steps.entries()) {
    const label = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${n + 1}`;
    if (!condition(step.if, context())) {
      result.steps.push({ step: label, outcome: 'skipped', outputs: {}, log: '' });
      continue;
    }
    const stepResult = await runStep(label, step, context(), runner, result.artifacts);
    result.steps.push(stepResult);
    if (step.id) steps[step.id] = { outputs: stepResult.outputs, outcome: stepResult.outcome, conclusion: stepResult.outcome };
    if (stepResult.outcome === 'failure') result.succeeded = false;
  }
  return result;
}

interface Runner {
  workspace: string;
  temp: string;
  /** The job's environment, with what steps added through GITHUB_ENV. */
  env: Record<string, string>;
  setup: RunnerSetup;
}

async function runStep(label: string, step: Step, context: ExpressionContext, runner: Runner, artifacts: Record<string, string[]>, actionPath?: string): Promise<StepResult> {
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
  if (step.run !== undefined) {
    const shell = step.shell ?? 'bash';
    if (shell !== 'bash') return { step: label, outcome: 'failure', outputs: {}, log: `shell ${shell} is not emulated` };
    return runScript(label, substitute(step.run, context), { ...stepEnv, ...(actionPath ? { GITHUB_ACTION_PATH: actionPath } : {}) }, runner, step['working-directory']);
  }
  const uses = step.uses!;
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
  if (/^actions\/checkout@/.test(uses)) {
    await runner.setup.checkout(runner.workspace);
    return { step: label, outcome: 'success', outputs: {}, log: 'checked out the repository' };
  }
  if (/^actions\/setup-node@/.test(uses)) return { step: label, outcome: 'success', outputs: {}, log: `node-version ${inputs['node-version'] ?? ''}: the runner's node ${process.version}` };
  if (/^actions\/upload-artifact@/.test(uses)) {
    const files = await filesUnder(resolve(runner.workspace, inputs.path ?? ''));
    artifacts[inputs.name ?? 'artifact'] = files;
    return { step: label, outcome: files.length > 0 ? 'success' : 'failure', outputs: {}, log: files.length > 0 ? `would upload ${files.length} files` : `no files found at ${inputs.path}` };
  }
  const folder = runner.setup.action(uses);
  if (!folder) return { step: label, outcome: 'failure', outputs: {}, log: `the action ${uses} is not emulated` };
  return runComposite(label, folder, inputs, stepEnv, runner, artifacts);
}

async function runComposite(label: string, folder: string, given: Record<string, string>, stepEnv: Record<string, string>, runner: Runner, artifacts: Record<string, string[]>): Promise<StepResult> {
  const action = parseYaml(await readFile(join(folder, 'action.yml'), 'utf8')) as { inputs?: Record<string, { default?: unknown }>; outputs?: Record<string, { value: string }>; runs: { using: string; steps: Step[] } };
  if (action.runs.using !== 'composite') return { step: label, outcome: 'failure', outputs: {}, log: `runs.using ${action.runs.using} is not emulated` };
  const inputs: Record<string, string> = {};
  for (const [name, declared] of Object.entries(action.inputs ?? {})) inputs[name] = declared.default === undefined ? '' : String(declared.default);
  Object.assign(inputs, given);
  const steps: Record<string, Value> = {};
  let failed = false;
  let log = '';
  let code: number | null | undefined;
  const env: Runner = { ...runner, env: { ...runner.env, ...stepEnv } };
  const context = (): ExpressionContext => ({ failed, contexts: { inputs, steps, env: { ...env.env }, github: { workspace: runner.workspace, action_path: folder }, runner: { temp: runner.temp, os: 'Linux' } } });
  for (const [n, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${n + 1}`;
    if (!condition(step.if, context())) continue;
    const result = await runStep(name, step, context(), env, artifacts, folder);
    log += `--- ${name}: ${result.outcome}\n${result.log}\n`;
    if (step.id) steps[step.id] = { outputs: result.outputs, outcome: result.outcome };
    if (result.outcome === 'failure') {
      failed = true;
      code ??= result.code;
    }
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([name, output]) => [name, substitute(output.value, context())]));
  return { step: label, outcome: failed ? 'failure' : 'success', code, outputs, log };
}

async function runScript(label: string, script: string, stepEnv: Record<string, string>, runner: Runner, workingDirectory?: string): Promise<StepResult> {
  const files = { output: join(runner.temp, `output-${Math.random().toString(36).slice(2)}`), env: join(runner.temp, 'env'), summary: join(runner.temp, 'summary.md'), path: join(runner.temp, 'path') };
  const scriptFile = join(runner.temp, `step-${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(scriptFile, script);
  for (const file of [files.output, files.env]) await writeFile(file, '');
  const env = {
    ...runner.setup.env, ...runner.env, ...stepEnv,
    CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_OS: 'Linux', RUNNER_TEMP: runner.temp, GITHUB_WORKSPACE: runner.workspace,
    GITHUB_OUTPUT: files.output, GITHUB_ENV: files.env, GITHUB_STEP_SUMMARY: files.summary, GITHUB_PATH: files.path,
    GITHUB_REPOSITORY: 'your-org/your-app', GITHUB_SERVER_URL: 'https://github.com', GITHUB_RUN_ID: '1', GITHUB_RUN_ATTEMPT: '1', GITHUB_SHA: '0'.repeat(40), GITHUB_REF: 'refs/heads/main', GITHUB_EVENT_NAME: 'push',
  };
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], { cwd: resolve(runner.workspace, workingDirectory ?? '.'), env });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  Object.assign(runner.env, fileCommands(await readFile(files.env, 'utf8')));
  return { step: label, outcome: code === 0 ? 'success' : 'failure', code, outputs: fileCommands(await readFile(files.output, 'utf8')), log };
}

/** `name=value` lines and `name<<DELIMITER` blocks, as GITHUB_OUTPUT and GITHUB_ENV hold them. */
export function fileCommands(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      values[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const equals = lines[i]!.indexOf('=');
    if (equals > 0) values[lines[i]!.slice(0, equals)] = lines[i]!.slice(equals + 1);
  }
  return values;
}

async function filesUnder(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(() => null);
  if (entries === null) return [path];
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

