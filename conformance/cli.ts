// The conformance suite's command line: `pets-conformance --base-url URL --api-key KEY`.
// `main` never exits the process: it resolves to the exit code, and bin.ts sets it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { processIo, type CliIo } from '../common/cliIo.ts';
import { wholeNumber } from '../common/wholeNumberOption.ts';
import { checkIds, checks } from './checks/index.ts';
import { ConformanceOptionsError, runConformance } from './index.ts';
import { progressLine, summaryTable } from './reports/consoleReport.ts';
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
  depth: 'quick' | 'full';
  listChecks?: boolean;
}

function program(io: CliIo): Command {
  return new Command(toolName)
    .description('Checks a deployment of the Pet Adoption API against its contract. Exit 0: every check passed; 1: a check failed; 2: the suite could not judge the deployment.')
    .version(toolVersion)
    .addOption(new Option('--base-url <url>', 'the API\'s base URL, ending in /v1 (env: PETS_BASE_URL)').argParser(baseUrl))
    .addOption(new Option('--api-key <key>', 'a valid API key; prefer the environment variable, to keep it off command lines (env: PETS_API_KEY)'))
    .option('--read-only', 'send only GET requests: safe against production', false)
    .option('--probe-rate-limit', 'spend the key\'s current quota on purpose to observe a 429 (off by default)', false)
    .addOption(new Option('--probe-max-requests <n>', 'the most requests the probe may spend; it is skipped when the key has more left').default(1100).argParser(wholeNumber(1)))
    .addOption(new Option('--depth <depth>', 'quick: every rule once; full: also random valid bodies').choices(['quick', 'full']).default('quick'))
    .option('--report-dir <dir>', 'where to write the reports', 'reports')
    .addOption(new Option('--checks <ids>', `run only these checks (comma-separated): ${checkIds.join(', ')}`).argParser(checkList))
    .addOption(new Option('--exclude-checks <ids>', 'skip these checks (comma-separated)').argParser(checkList))
    .addOption(new Option('--timeout <ms>', 'how long to wait for each answer').default(10_000).argParser(wholeNumber(1)))
    .addOption(new Option('--seed <n>', 'seed for generated request data').default(1).argParser(wholeNumber(0)))
    .addOption(new Option('--max-wait <seconds>', 'longest wait for a quota window or a Retry-After before checks are skipped').default(65).argParser(wholeNumber(0)))
    .option('--list-checks', 'list the checks and exit')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
}

/** Runs the suite as `pets-conformance argv...` would, and resolves to its exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const cannotRun = (reason: string) => {
    io.stderr.write(`${toolName}: ${reason}\n`);
    return EXIT.cannotRun;
  };
  const cli = program(io);
  let options: CliOptions;
  try {
    cli.parse(argv, { from: 'user' });
    options = cli.opts<CliOptions>();
  } catch (error) {
    const code = (error as CommanderError).code;
    return code === 'commander.helpDisplayed' || code === 'commander.version' ? EXIT.passed : EXIT.cannotRun;
  }

  if (options.listChecks) {
    for (const check of checks) out(`${check.id.padEnd(20)} ${check.severity.padEnd(9)} ${check.title}`);
    return EXIT.passed;
  }
  let url = options.baseUrl;
  if (url === undefined && io.env.PETS_BASE_URL) {
    try {
      url = baseUrl(io.env.PETS_BASE_URL);
    } catch (error) {
      return cannotRun(`PETS_BASE_URL: ${(error as Error).message}`);
    }
  }
  const apiKey = options.apiKey ?? io.env.PETS_API_KEY;
  if (!url) return cannotRun('no base URL. Give --base-url or set PETS_BASE_URL.');
  if (!apiKey) return cannotRun('no API key. Give --api-key or set PETS_API_KEY.');

  try {
    const selected = checks.filter((c) => (!options.checks || options.checks.includes(c.id)) && !options.excludeChecks?.includes(c.id));
    out(`${toolName} ${toolVersion}: ${selected.length} checks against ${url}${options.readOnly ? ' (read-only)' : ''}, depth ${options.depth}`);
    const result = await runConformance({
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
      reportDir: resolve(io.cwd, options.reportDir),
      onProgress: (event) => {
        if (event.kind === 'check-end') out(progressLine(event.report));
        else if (event.kind === 'note') out(`  note: ${event.message}`);
      },
    });
    const { report, reportPaths } = result;
    out(`\n${summaryTable(report)}\n\nReports: ${Object.values(reportPaths ?? {}).join(', ')}`);
    if (report.verdict === 'cannot-run') return cannotRun(report.reason ?? 'the run could not judge the deployment.');
    return result.exitCode;
  } catch (error) {
    if (error instanceof ConformanceOptionsError) return cannotRun(error.message);
    return cannotRun(`internal error: ${(error as Error).stack ?? String(error)}`);
  }
}

// Run as a script (`node --import tsx conformance/cli.ts`, as package.json's `conformance` script
// did before bin.ts), it still runs the suite rather than exit 0 having checked nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
