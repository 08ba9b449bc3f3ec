#!/usr/bin/env node
// The conformance suite: `npm run conformance -- --base-url URL --api-key KEY`, or `pets-conformance`.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { loadSpec } from '../spec/loadSpec.ts';
import { wholeNumber } from '../common/wholeNumberOption.ts';
import { processIo } from '../common/cliIo.ts';
import { applyConfigFile, configOption } from './config/applyConfigFile.ts';
import { headerMap, headerOption } from './config/extraHeaders.ts';
import { ConfigError } from './config/loadConfigFile.ts';
import { finishRun } from './reports/finishRun.ts';
import { cannotRunReport, type RunReport } from './runReport.ts';
import { checkIds, checks } from './checks/index.ts';
import { fetchTransport } from './http/transport.ts';
import { progressLine, summaryTable } from './reports/consoleReport.ts';
import { CannotRunError, runConformance } from './runner.ts';
import { toolName, toolVersion } from './version.ts';

/** Exit codes: 0 every check passed, 1 a check failed, 2 the suite could not run. */
const EXIT = { passed: 0, failed: 1, cannotRun: 2 } as const;

function checkList(value: string, previous: string[] = []): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !checkIds.includes(id));
  if (unknown.length > 0) throw new InvalidArgumentError(`Unknown check ${unknown.join(', ')}. Known checks: ${checkIds.join(', ')}.`);
  return [...previous, ...ids];
}

function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('Give an absolute http or https URL, such as https://api.example.com/v1.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('Give an http or https URL.');
  return value.replace(/\/+$/, '');
}

interface CliOptions {
  baseUrl?: string;
  apiKey?: string;
  readOnly: boolean;
  probeRateLimit: boolean;
  probeMaxRequests: number;
  reportDir: string;
  checks?: string[];
  excludeChecks?: string[];
  timeout: number;
  seed: number;
  maxWait: number;
  listChecks?: boolean;
  header?: string[];
  config?: string;
}

const program = new Command(toolName)
  .description('Checks a deployment of the Pet Adoption API against its contract. Exit 0: every check passed; 1: a check failed; 2: the suite could not run.')
  .version(toolVersion)
  .addOption(new Option('--base-url <url>', 'the API\'s base URL, ending in /v1').env('PETS_BASE_URL').argParser(baseUrl))
  .addOption(new Option('--api-key <key>', 'a valid API key (prefer the environment variable, to keep it off command lines)').env('PETS_API_KEY'))
  .option('--read-only', 'send only GET requests: safe against production', false)
  .option('--probe-rate-limit', 'spend the key\'s current quota on purpose to observe a 429 (off by default)', false)
  .addOption(new Option('--probe-max-requests <n>', 'the most requests the probe may spend; it is skipped when the key has more left').default(1100).argParser(wholeNumber(1)))
  .option('--report-dir <dir>', 'where to write the JUnit, JSON, HTML and Markdown reports', 'reports')
  .addOption(new Option('--checks <ids>', `run only these checks (comma-separated): ${checkIds.join(', ')}`).argParser(checkList))
  .addOption(new Option('--exclude-checks <ids>', 'skip these checks (comma-separated)').argParser(checkList))
  .addOption(new Option('--timeout <ms>', 'how long to wait for each answer').default(10_000).argParser(wholeNumber(1)))
  .addOption(new Option('--seed <n>', 'seed for generated request data').default(1).argParser(wholeNumber(0)))
  .addOption(new Option('--max-wait <seconds>', 'longest wait for a quota window or a Retry-After before checks are skipped').default(65).argParser(wholeNumber(0)))
  .addOption(headerOption())
  .addOption(configOption())
  .option('--list-checks', 'list the checks and exit')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

// Every run ends in finishRun: the reports (exit 0, 1 and 2 alike), the GitHub output, the exit code.
const io = processIo();
const startedAt = new Date();
let secrets: Record<string, string> = {};
const finish = async (report: RunReport): Promise<never> => process.exit((await finishRun(report, { reportDir: program.opts<CliOptions>().reportDir ?? 'reports', io })).exitCode);
const cannotRun = (reason: string, partial?: CannotRunError['partial']) => {
  const opts = program.opts<CliOptions>();
  return cannotRunReport({ reason, baseUrl: opts.baseUrl, tool: { name: toolName, version: toolVersion }, startedAt, runId: partial?.runId, exchanges: partial?.exchanges, unanswered: partial?.unanswered, options: { readOnly: opts.readOnly, probeRateLimit: opts.probeRateLimit, seed: opts.seed, checks: opts.checks ?? [] } });
};

let options!: CliOptions;
try {
  program.parse();
  secrets = (await applyConfigFile(program, process.env)).secrets;
  options = program.opts<CliOptions>();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`${toolName}: ${error.message}`);
    await finish(cannotRun(error.message));
  }
  const code = (error as CommanderError).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version') process.exit(EXIT.passed);
  await finish(cannotRun((error as Error).message.replace(/^error: /, '')));
}

if (options.listChecks) {
  for (const check of checks) console.log(`${check.id.padEnd(20)} ${check.severity.padEnd(9)} ${check.title}`);
  process.exit(EXIT.passed);
}

const fail = async (reason: string, partial?: CannotRunError['partial']): Promise<never> => {
  console.error(`${toolName}: ${reason}`);
  return finish(cannotRun(reason, partial));
};
if (!options.baseUrl) await fail('no base URL. Give --base-url or set PETS_BASE_URL.');
if (!options.apiKey) await fail('no API key. Give --api-key or set PETS_API_KEY.');

const selected = checks.filter((c) => (!options.checks || options.checks.includes(c.id)) && !options.excludeChecks?.includes(c.id));
if (selected.length === 0) await fail('no check left to run. Check --checks and --exclude-checks.');

try {
  const spec = await loadSpec();
  console.log(`${toolName} ${toolVersion}: ${selected.length} checks against ${options.baseUrl}${options.readOnly ? ' (read-only)' : ''}`);
  const report = await runConformance({
    baseUrl: options.baseUrl!,
    apiKey: options.apiKey!,
    timeoutMs: options.timeout,
    readOnly: options.readOnly,
    probeRateLimit: options.probeRateLimit,
    probeMaxRequests: options.probeMaxRequests,
    seed: options.seed,
    spec,
    checks: selected,
    transport: fetchTransport,
    headers: headerMap(options.header ?? []),
    secrets,
    maxWaitMs: options.maxWait * 1000,
    onProgress: (event) => {
      if (event.kind === 'check-end') console.log(progressLine(event.report));
      else if (event.kind === 'note') console.log(`  note: ${event.message}`);
    },
  });
  console.log(`\n${summaryTable(report)}\n\nReports in ${options.reportDir}`);
  await finish(report);
} catch (error) {
  if (error instanceof CannotRunError) await fail(error.message, error.partial);
  await fail(`internal error: ${(error as Error).stack ?? String(error)}`);
}
