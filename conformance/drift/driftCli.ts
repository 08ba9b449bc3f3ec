// `pets-conformance drift --base-url A --against B|mock`: the drift run as a command (docs/drift.md).
// Resolves to its exit code: 0 when neither side breaks the contract, 1 when one does (or, with
// --fail-on-drift, when an open choice differs), 2 when it could not judge.
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { CliIo } from '../../common/cliIo.ts';
import { wholeNumber } from '../../common/wholeNumberOption.ts';
import { loadProfile, type DeploymentProfile } from '../../mock/profile/profile.ts';
import { loadSpec } from '../../spec/loadSpec.ts';
import { baseUrlOption } from '../config/baseUrlOption.ts';
import { httpTransport } from '../http/transport.ts';
import { toolName } from '../version.ts';
import { driftSummary } from './driftReport.ts';
import type { DriftTarget } from './driftSide.ts';
import { openMockTarget } from './mockTarget.ts';
import { defaultDriftSeed, defaultGeneratedRequests, runDrift } from './runDrift.ts';
import { defaultProbeBanMaxRequests } from './banProbe.ts';
import { defaultProbeMaxBody } from './bodyLimitProbe.ts';
import { hideSecrets, writeDriftReports, writeProfile } from './writeDriftReports.ts';

interface DriftCliOptions {
  baseUrl?: string;
  apiKey?: string;
  against?: string;
  againstApiKey?: string;
  profile?: string;
  failOnDrift: boolean;
  writeProfile?: string;
  probeRateLimit: boolean;
  probeMaxRequests: number;
  probeBan: boolean;
  probeBanMaxRequests: number;
  probeMaxBody: number;
  reportDir: string;
  timeout: number;
  seed: number;
  generatedRequests: number;
}

const againstOption = (value: string) => (value === 'mock' ? value : baseUrlOption(value));

export function driftProgram(io: Pick<CliIo, 'stdout' | 'stderr'>): Command {
  return new Command(`${toolName} drift`)
    .description('Sends the same probes and seeded generated traffic to two deployments (or one and the mock) and reports every difference: a contract break (which side), an open choice made differently (its docs/contract-choices.md row), or a meaningless one (ids, pets, messages). Exit 0: neither side breaks the contract; 1: one does (or, with --fail-on-drift, a choice differs); 2: could not judge.')
    .addOption(new Option('--base-url <url>', 'deployment A, ending in /v1: the one a written profile describes (env: PETS_BASE_URL)').argParser(baseUrlOption))
    .addOption(new Option('--api-key <key>', 'a key A accepts (env: PETS_API_KEY)'))
    .addOption(new Option('--against <url|mock>', 'deployment B, ending in /v1, or `mock`: the project\'s mock in-process, with its default fixtures').argParser(againstOption))
    .addOption(new Option('--against-api-key <key>', 'a key B accepts (env: PETS_AGAINST_API_KEY); for the mock, default demo-pro'))
    .option('--profile <file>', 'with --against mock: give the mock this profile, to see what drift remains after calibration')
    .option('--fail-on-drift', 'exit 1 when any open choice differs, not only on a contract break', false)
    .option('--write-profile <file>', 'write A\'s observed choices as a profile (mock/profile/profile.schema.json), for pets-mock --profile')
    .option('--probe-rate-limit', 'spend the keyless quota of this address on each side to see a 429 and its Retry-After (off by default)', false)
    .addOption(new Option('--probe-max-requests <n>', 'the most keyless requests that probe sends to each side').default(200).argParser(wholeNumber(1)))
    .option('--probe-ban', 'GETS EACH SIDE\'S KEY BANNED for the length of its ban: spends the key\'s quota to a 429 and keeps sending until a ban shows, to see the ban rule (after how many refusals, for how long, its code). Off by default; use a key nothing else needs, and wait out the ban before using it again', false)
    .addOption(new Option('--probe-ban-max-requests <n>', 'the most requests the ban probe sends to each side (quota and refusals); none banned within it is reported as "no ban observed"').default(defaultProbeBanMaxRequests).argParser(wholeNumber(1)))
    .addOption(new Option('--probe-max-body <bytes>', 'the largest create body the body-limit probe sends to each side (invalid bodies, nothing is created; doubled from 1 KiB, then bisected to the byte); 0 turns the probe off').default(defaultProbeMaxBody).argParser(wholeNumber(0)))
    .addOption(new Option('--seed <n>', 'seed of the generated traffic both sides are sent (the suite\'s --seed: the same seed sends the same requests)').default(defaultDriftSeed).argParser(wholeNumber(0)))
    .addOption(new Option('--generated-requests <n>', 'the most generated requests sent to each side (0: the probes only)').default(defaultGeneratedRequests).argParser(wholeNumber(0)))
    .option('--report-dir <dir>', 'where to write the reports (drift-summary.md, drift-report.html, drift-report.json)', 'reports')
    .addOption(new Option('--timeout <ms>', 'how long to wait for each answer').default(10_000).argParser(wholeNumber(1)))
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
}

export async function driftMain(argv: string[], io: CliIo): Promise<number> {
  const cli = driftProgram(io);
  let options: DriftCliOptions;
  try {
    cli.parse(argv, { from: 'user' });
    options = cli.opts<DriftCliOptions>();
  } catch (error) {
    const code = (error as CommanderError).code;
    return code === 'commander.helpDisplayed' || code === 'commander.version' ? 0 : 2;
  }
  const fail = (reason: string) => {
    io.stderr.write(`${toolName} drift: ${reason}\n`);
    return 2;
  };
  let baseUrl: string | undefined;
  try {
    baseUrl = options.baseUrl ?? (io.env.PETS_BASE_URL ? baseUrlOption(io.env.PETS_BASE_URL) : undefined);
  } catch (error) {
    return fail(`PETS_BASE_URL: ${(error as InvalidArgumentError).message}`);
  }
  const apiKey = options.apiKey ?? io.env.PETS_API_KEY;
  const againstKey = options.againstApiKey ?? io.env.PETS_AGAINST_API_KEY;
  if (!baseUrl) return fail('no base URL. Give --base-url (or PETS_BASE_URL).');
  if (!apiKey) return fail('no API key for A. Give --api-key (or PETS_API_KEY).');
  if (!options.against) return fail('nothing to compare with. Give --against URL or --against mock.');
  if (options.against !== 'mock' && !againstKey) return fail('no API key for B. Give --against-api-key (or PETS_AGAINST_API_KEY).');
  if (options.profile && options.against !== 'mock') return fail('--profile is for the mock: give it with --against mock.');

  let profile: DeploymentProfile | undefined;
  try {
    profile = options.profile ? await loadProfile(resolve(io.cwd, options.profile)) : undefined;
  } catch (error) {
    return fail(`--profile: ${(error as Error).message}`);
  }
  const secrets = [apiKey, ...(againstKey ? [againstKey] : [])];
  const spec = await loadSpec();
  const transport = httpTransport();
  const base: DriftTarget = { label: 'A', baseUrl, apiKey, transport, now: Date.now };
  const mock = options.against === 'mock' ? await openMockTarget({ spec, ...(againstKey ? { apiKey: againstKey } : {}), ...(profile ? { profile } : {}) }) : undefined;
  const against: DriftTarget = mock?.target ?? { label: 'B', baseUrl: options.against, apiKey: againstKey!, transport, now: Date.now };
  try {
    const result = await runDrift({ base, against, againstIsMock: mock !== undefined, spec, probeRateLimit: options.probeRateLimit, probeMaxRequests: options.probeMaxRequests, probeBan: options.probeBan, probeBanMaxRequests: options.probeBanMaxRequests, probeMaxBody: options.probeMaxBody, timeoutMs: options.timeout, failOnDrift: options.failOnDrift, seed: options.seed, generatedRequests: options.generatedRequests });
    io.stdout.write(`${hideSecrets(driftSummary(result), secrets)}\n`);
    const paths = await writeDriftReports(result, resolve(io.cwd, options.reportDir), secrets);
    io.stdout.write(`Reports: ${Object.values(paths).join(', ')}\n`);
    if (options.writeProfile) {
      const file = resolve(io.cwd, options.writeProfile);
      await writeProfile(result, file, secrets);
      io.stdout.write(`Profile of A: ${file}${result.cannotMake.length > 0 ? ` (the mock cannot make ${result.cannotMake.map((c) => c.field).join(', ')})` : ''}\n`);
    }
    return result.exitCode;
  } catch (error) {
    return fail(`internal error: ${hideSecrets((error as Error).stack ?? String(error), secrets)}`);
  } finally {
    await transport.close?.();
    await mock?.close();
  }
}
