// The conformance suite's command line: `pets-conformance --base-url URL --api-key KEY`.
// `main` never exits the process: it resolves to the exit code, and bin.ts sets it.
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { CliIo } from '../common/cliIo.ts';
import { wholeNumber } from '../common/wholeNumberOption.ts';
import { checkIds, checks } from './checks/index.ts';
import { applyConfigFile, configOption } from './config/applyConfigFile.ts';
import { baseUrlOption } from './config/baseUrlOption.ts';
import { headerMap, headerOption } from './config/extraHeaders.ts';
import { didYouMean } from '../common/nearest.ts';
import { ConfigError } from './config/loadConfigFile.ts';
import { contractPlanNames, type ContractPlan } from './model/contractPlans.ts';
import { ConformanceOptionsError, runConformance } from './index.ts';
import { progressLine, summaryTable } from './reports/consoleReport.ts';
import { finishRun } from './finishRun.ts';
import { proxyMain } from './proxy/proxyCli.ts';
import { driftMain } from './drift/driftCli.ts';
import { cannotRunReport, exitCodes, type RunReport } from './runReport.ts';
import { toolName, toolVersion } from './version.ts';
import type { UsageFile } from '../common/usage/clientUsage.ts';
import { judgeUsage, usageExitCode } from './usage/judgeUsage.ts';
import { readUsageFile, UsageFileError } from './usage/readUsageFile.ts';
import { usageLines } from './reports/usageSection.ts';

function checkList(value: string, previous: string[] = []): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !checkIds.includes(id));
  if (unknown.length > 0) {
    const named = `Unknown check ${unknown.map((id) => `"${id}"${didYouMean(id, checkIds)}`).join(', ')}`;
    throw new InvalidArgumentError(`${named}${named.endsWith('?') ? '' : '.'} Known checks: ${checkIds.join(', ')}.`);
  }
  return [...previous, ...ids];
}

function depthOption(value: string): 'quick' | 'full' | number {
  if (value === 'quick' || value === 'full') return value;
  if (/^\d+$/.test(value)) return Number(value);
  throw new InvalidArgumentError(`"${value}" is not a depth. Give quick, full or a whole number of sequences, such as --depth 30.`);
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
  depth: 'quick' | 'full' | number;
  apiKey2?: string;
  apiKeyPlan?: ContractPlan;
  apiKey2Plan?: ContractPlan;
  sharedKey: boolean;
  allowPartial: boolean;
  maxDuration: number;
  maxBody: number;
  listChecks?: boolean;
  header?: string[];
  config?: string;
  usage?: string;
  failOn: 'contract' | 'usage';
}

/** The command line's options and their parsers: the CLI and the GitHub Action validate by the same. */
export function conformanceProgram(io: Pick<CliIo, 'stdout' | 'stderr'>): Command {
  return new Command(toolName)
    .description('Checks a deployment of the Pet Adoption API against its contract. Exit 0: every check passed; 1: a check failed; 2: the suite could not judge the deployment. `pets-conformance proxy --help`: the validating proxy, which judges traffic others send. `pets-conformance drift --help`: two deployments, or one and the mock, compared.')
    .version(toolVersion)
    .addOption(new Option('--base-url <url>', 'the API\'s base URL, ending in /v1 (env: PETS_BASE_URL)').argParser(baseUrlOption))
    .addOption(new Option('--api-key <key>', 'a valid API key; prefer the environment variable, to keep it off command lines (env: PETS_API_KEY)'))
    .option('--read-only', 'send only GET requests: safe against production', false)
    .option('--probe-rate-limit', 'spend the key\'s current quota on purpose to observe a 429 (off by default)', false)
    .addOption(new Option('--probe-max-requests <n>', 'the most requests the probe may spend; it is skipped when the key has more left').default(1100).argParser(wholeNumber(1)))
    .addOption(new Option('--depth <depth>', 'how many generated sequences run: quick (12), full (40, and random valid bodies) or a number').default('quick').argParser(depthOption))
    .addOption(new Option('--api-key-plan <plan>', 'the plan of --api-key, when you know it: its answers must announce that plan\'s limit a minute or a day, as the contract\'s "Rate limits by plan" table gives it (env: PETS_API_KEY_PLAN)').choices(contractPlanNames))
    .addOption(new Option('--api-key-2 <key>', 'a second valid key, ideally of another plan: every operation is also sent with it, to judge isolation between keys (env: PETS_API_KEY_2)'))
    .addOption(new Option('--api-key-2-plan <plan>', 'the plan of --api-key-2, when you know it (env: PETS_API_KEY_2_PLAN)').choices(contractPlanNames))
    .option('--shared-key', 'others use the key during the run: rate-limit accounting judges only what still holds', false)
    .addOption(new Option('--max-body <bytes>', 'the most bytes of one answer the suite reads, after decompression; a larger answer is unreadable, a failure').default(4 * 1024 * 1024).argParser(wholeNumber(1024)))
    .addOption(new Option('--max-duration <seconds>', 'the run\'s time budget: no wait ends past it, and checks not started by then are skipped (10 minutes: a run on a key of 60 a minute spends four to five windows, more if others spent its window)').default(600).argParser(wholeNumber(1)))
    .option('--allow-partial', 'accept a partial run: without it, a run that left a check unchecked (its time budget or a quota window spent, a key too small for the generated sequences) exits 2, not 0', false)
    .option('--report-dir <dir>', 'where to write the six reports (JUnit, JSON, CTRF, HAR, HTML, Markdown), on every run', 'reports')
    .addOption(new Option('--checks <ids>', `run only these checks (comma-separated): ${checkIds.join(', ')}`).argParser(checkList))
    .addOption(new Option('--exclude-checks <ids>', 'skip these checks (comma-separated)').argParser(checkList))
    .addOption(new Option('--timeout <ms>', 'how long to wait for each answer').default(10_000).argParser(wholeNumber(1)))
    .addOption(new Option('--seed <n>', 'seed for generated request data').default(1).argParser(wholeNumber(0)))
    .addOption(new Option('--max-wait <seconds>', 'longest wait for a quota window or a Retry-After before checks are skipped').default(65).argParser(wholeNumber(0)))
    .addOption(headerOption())
    .addOption(configOption())
    .addOption(new Option('--usage <file>', 'a usage file (the mock\'s GET /__mock/client-usage, the proxy\'s GET /__proxy/usage): the reports say first whether the deployment keeps the contract for what each of its clients uses (docs/usage.md)'))
    .addOption(new Option('--fail-on <what>', 'what sets the exit code: the contract (default), or with --usage only the failures a client of the usage file uses').choices(['contract', 'usage']).default('contract'))
    .option('--list-checks', 'list the checks and exit')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
}

/** The environment's PETS_* variables, as commander's `env` source: over a config file, under the command line. */
function applyEnv(cli: Command, env: CliIo['env']): void {
  if (cli.getOptionValueSource('baseUrl') === undefined && env.PETS_BASE_URL) {
    try {
      cli.setOptionValueWithSource('baseUrl', baseUrlOption(env.PETS_BASE_URL), 'env');
    } catch (error) {
      throw new ConfigError(`PETS_BASE_URL: ${(error as Error).message}`);
    }
  }
  if (cli.getOptionValueSource('apiKey') === undefined && env.PETS_API_KEY) cli.setOptionValueWithSource('apiKey', env.PETS_API_KEY, 'env');
  if (cli.getOptionValueSource('apiKey2') === undefined && env.PETS_API_KEY_2) cli.setOptionValueWithSource('apiKey2', env.PETS_API_KEY_2, 'env');
  for (const [name, variable] of [['apiKeyPlan', 'PETS_API_KEY_PLAN'], ['apiKey2Plan', 'PETS_API_KEY_2_PLAN']] as const) {
    const value = env[variable];
    if (cli.getOptionValueSource(name) !== undefined || !value) continue;
    if (!(contractPlanNames as readonly string[]).includes(value)) throw new ConfigError(`${variable}: "${value}" is no plan of the contract. Give one of ${contractPlanNames.join(', ')}.`);
    cli.setOptionValueWithSource(name, value, 'env');
  }
}

/**
 * Runs the suite as `pets-conformance argv...` would, and resolves to its exit code. Every run,
 * even one stopped by a bad option, ends in `finishRun`: the six reports and the GitHub output.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  // `pets-conformance proxy …`: the validating proxy, its own command with its own options.
  if (argv[0] === 'proxy') return proxyMain(argv.slice(1), io);
  // `pets-conformance drift …`: two deployments (or one and the mock) compared (docs/drift.md).
  if (argv[0] === 'drift') return driftMain(argv.slice(1), io);
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const cli = conformanceProgram(io);
  const finish = async (report: RunReport): Promise<number> => {
    const reportDir = resolve(io.cwd, cli.opts<CliOptions>().reportDir ?? 'reports');
    const { exitCode, paths } = await finishRun(report, { reportDir, io });
    if (paths) out(`Reports: ${Object.values(paths).join(', ')}`);
    return exitCode;
  };
  const cannotRun = (reason: string) => {
    io.stderr.write(`${toolName}: ${reason}\n`);
    const opts = cli.opts<CliOptions>();
    return finish(cannotRunReport({ reason, baseUrl: opts.baseUrl, options: { readOnly: opts.readOnly, probeRateLimit: opts.probeRateLimit, seed: opts.seed, depth: String(opts.depth), checks: opts.checks ?? [], allowPartial: opts.allowPartial } }));
  };

  let options: CliOptions;
  let secrets: Record<string, string>;
  try {
    cli.parse(argv, { from: 'user' });
    applyEnv(cli, io.env);
    ({ secrets } = await applyConfigFile(cli, io.env, io.cwd));
    options = cli.opts<CliOptions>();
  } catch (error) {
    const code = (error as CommanderError).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return exitCodes.passed;
    // commander has already printed its own message; a config error has not.
    if (error instanceof ConfigError) return cannotRun(error.message);
    return finish(cannotRunReport({ reason: (error as Error).message.replace(/^error: /, ''), baseUrl: cli.opts<CliOptions>().baseUrl }));
  }

  if (options.listChecks) {
    for (const check of checks) out(`${check.id.padEnd(20)} ${check.severity.padEnd(9)} ${check.title}`);
    return exitCodes.passed;
  }
  const url = options.baseUrl;
  const apiKey = options.apiKey;
  if (!url) return cannotRun('no base URL. Give --base-url, set PETS_BASE_URL, or set baseUrl in the --config file.');
  if (!apiKey) return cannotRun('no API key. Give --api-key, set PETS_API_KEY, or set apiKey in the --config file.');

  let usage: UsageFile | undefined;
  if (options.usage !== undefined) {
    try {
      usage = await readUsageFile(resolve(io.cwd, options.usage));
    } catch (error) {
      if (error instanceof UsageFileError) return cannotRun(error.message);
      throw error;
    }
  } else if (options.failOn === 'usage') {
    return cannotRun('--fail-on usage needs --usage FILE: without a usage file there is no client whose usage could set the exit code.');
  }

  let report: RunReport;
  try {
    const selected = checks.filter((c) => (!options.checks || options.checks.includes(c.id)) && !options.excludeChecks?.includes(c.id));
    out(`${toolName} ${toolVersion}: ${selected.length} checks against ${url}${options.readOnly ? ' (read-only)' : ''}, depth ${options.depth}`);
    ({ report } = await runConformance({
      baseUrl: url,
      apiKey,
      readOnly: options.readOnly,
      probeRateLimit: options.probeRateLimit,
      probeMaxRequests: options.probeMaxRequests,
      ...(options.checks ? { checks: options.checks } : {}),
      ...(options.excludeChecks ? { excludeChecks: options.excludeChecks } : {}),
      timeout: options.timeout,
      seed: options.seed,
      maxWait: options.maxWait,
      depth: options.depth,
      ...(options.apiKey2 ? { apiKey2: options.apiKey2 } : {}),
      ...(options.apiKeyPlan ? { apiKeyPlan: options.apiKeyPlan } : {}),
      ...(options.apiKey2Plan ? { apiKey2Plan: options.apiKey2Plan } : {}),
      sharedKey: options.sharedKey,
      allowPartial: options.allowPartial,
      maxDuration: options.maxDuration,
      maxBody: options.maxBody,
      headers: headerMap(options.header ?? []),
      secrets,
      onProgress: (event) => {
        if (event.kind === 'check-end') out(progressLine(event.report));
        else if (event.kind === 'note') out(`  note: ${event.message}`);
      },
    }));
  } catch (error) {
    if (error instanceof ConformanceOptionsError) return cannotRun(error.message);
    return cannotRun(`internal error: ${(error as Error).stack ?? String(error)}`);
  }
  if (usage) report = { usage: judgeUsage(report, usage), ...report };
  out(`\n${[...usageLines(report), summaryTable(report)].join('\n')}\n`);
  if (report.verdict === 'cannot-run') io.stderr.write(`${toolName}: ${report.reason}\n`);
  const exitCode = await finish(report);
  return options.failOn === 'usage' && report.usage ? usageExitCode(report) : exitCode;
}
