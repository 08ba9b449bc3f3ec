// The mock's command line: `pets-mock --help`. `main` is what the bin runs, and what tests call in-process.
import { rateLimitHeadersChoices, type RateLimitHeaders } from './rateLimits/draftRateLimitFields.ts';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { CliIo, StopSignal } from '../common/cliIo.ts';
import { wholeNumber } from '../common/wholeNumberOption.ts';
import { defaultKeysFile, defaultPetsFile } from '../fixtures/loadFixtures.ts';
import { petStatuses } from '../spec/types.ts';
import { API_PREFIX, CONTROL_PREFIX } from './core/prefixes.ts';
import { defaultBodyLimit } from './core/createMockCore.ts';
import { defaultBan, defaultRequestLogSize } from './state/mockState.ts';
import { parseLatency, type Latency } from './pipeline/latency.ts';
import { defaultShutdownGraceMs, startMockServer, type MockServer } from './server/startMockServer.ts';
import { loadKeysFile } from './state/loadKeysFile.ts';
import { redactRedisUrl } from './redis/redisUrl.ts';
import { redisUrlVariable, resolveRedisOptions } from './redis/resolveRedisOptions.ts';
import { parseTrustProxy, type TrustProxy } from './server/parseTrustProxy.ts';
import { isLoopbackHost } from '../common/isLoopbackHost.ts';
import { checkControlToken, controlTokenVariable } from './control/controlTokenGuard.ts';
import { checkCorsOrigins } from './pipeline/checkCorsOrigins.ts';
import { loadProfile, type DeploymentProfile } from './profile/profile.ts';
import { defaultKeylessLimits } from './rateLimits/anonymousBucket.ts';
import { parseKeylessLimit } from './rateLimits/parseKeylessLimit.ts';
import type { Limits } from './rateLimits/plans.ts';

interface CliOptions {
  port: number;
  host: string;
  seed?: number;
  pets?: number;
  fixtures: string;
  keys: string;
  corsOrigin: string[];
  cors: boolean;
  bodyLimit: number;
  logLevel: string;
  quiet: boolean;
  banThreshold: number;
  banSeconds: number;
  keylessLimit?: Partial<Limits>;
  defaultStatus: string;
  control: boolean;
  strict: boolean;
  ratelimitHeaders: RateLimitHeaders;
  latency?: Latency;
  watch: boolean;
  stateFile?: string;
  requestLogSize: number;
  shutdownGrace: number;
  redis?: string;
  redisPrefix?: string;
  replicaId?: string;
  trustProxy?: TrustProxy;
  controlToken?: string;
  profile?: string;
}

/** Turns a parser's Error into commander's InvalidArgumentError, so commander names the option and the reason. */
function optionParser<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** The command line's options and help, without running it (the docs' tests check the options they show exist). */
export function mockProgram(io: Pick<CliIo, 'stdout' | 'stderr'>): Command {
  return new Command('pets-mock')
    .description('A stateful mock of the Pet Adoption API, with per-plan rate limits, demo keys, CORS and a control API.')
    .addOption(new Option('-p, --port <port>', 'port to listen on (env: PORT)').default(4010).argParser(wholeNumber(0)))
    .addOption(new Option('-H, --host <host>', 'address to listen on (env: HOST)').default('127.0.0.1'))
    .addOption(new Option('--seed <n>', 'generate the pets with this seed instead of reading the fixtures file').argParser(wholeNumber(0)))
    .addOption(new Option('--pets <n>', 'generate this many pets instead of reading the fixtures file').argParser(wholeNumber(0)))
    .option('--fixtures <file>', 'pets file to start with (a JSON array of Pet)', defaultPetsFile)
    .option('--keys <file>', 'API keys file (a JSON array of {key, plan, perMinute?, perDay?})', defaultKeysFile)
    .option('--cors-origin <origins...>', 'origins allowed by CORS; * allows any', ['*'])
    .option('--no-cors', 'turn CORS off')
    .addOption(new Option('--body-limit <bytes>', 'largest request body in bytes; larger ones get 413').default(defaultBodyLimit).argParser(wholeNumber(1)))
    .addOption(new Option('--log-level <level>', 'log level; at info, debug and trace, one access-log line per API request').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'))
    .option('-q, --quiet', 'no access-log line per request (start, reloads, warnings and errors are still logged)', false)
    .addOption(new Option('--ban-threshold <n>', 'refused requests in one throttled spell that ban a key').default(defaultBan.threshold).argParser(wholeNumber(1)))
    .addOption(new Option('--ban-seconds <n>', 'how long a ban lasts, in seconds').default(defaultBan.seconds).argParser(wholeNumber(1)))
    .addOption(new Option('--keyless-limit <limits>', `how many requests without a valid key a client address may send: N/minute, N/day or both (default: ${defaultKeylessLimits.perMinute}/minute,${defaultKeylessLimits.perDay}/day, the Free plan's)`).argParser(optionParser(parseKeylessLimit)))
    .addOption(new Option('--default-status <status>', 'status of a pet created without one ("none" leaves it absent)').choices([...petStatuses, 'none']).default('available'))
    .option('--no-control', 'turn the control API under /__mock off')
    .addOption(new Option('--ratelimit-headers <fields>', 'draft: also send RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-headers-11) beside X-RateLimit-*').choices([...rateLimitHeadersChoices]).default('contract'))
    .option('--profile <file>', 'make a deployment\'s open choices instead of the mock\'s: a profile as `pets-conformance drift --write-profile` writes it (docs/drift.md); it wins over --default-status, --strict, --body-limit, --keyless-limit and the ban options')
    .option('--strict', 'refuse query parameters the contract does not define for the operation (400) instead of ignoring them (and naming them in X-Mock-Ignored-Query)', false)
    .addOption(new Option('--control-token <token>', `require "Authorization: Bearer <token>" on every control API request; prefer the environment variable, which ps does not show (env: ${controlTokenVariable})`).argParser(optionParser((value) => (checkControlToken(value, 'The token'), value))))
    .addOption(new Option('--latency <ms>', 'delay every API answer by MS, or by a random MIN-MAX milliseconds').argParser(optionParser(parseLatency)))
    .option('--watch', 'reload the spec and the fixtures file when they change', false)
    .option('--state-file <file>', 'keep the pets in this file across restarts (saved within 200 ms of each change; ids are never reissued)')
    .addOption(new Option('--request-log-size <n>', 'requests kept for GET /__mock/requests').default(defaultRequestLogSize).argParser(wholeNumber(0)))
    .addOption(new Option('--redis <url>', `keep the state in Redis, shared by every mock on it: redis://[:password@]host[:port][/db] or rediss:// (env: ${redisUrlVariable})`))
    .addOption(new Option('--redis-prefix <prefix>', 'put this before every Redis key, so several mocks can share one Redis (default: pets-mock:)'))
    .addOption(new Option('--replica-id <id>', 'with --redis, what this replica is called in the shared request log and its access log (default: host:pid)'))
    .addOption(new Option('--trust-proxy <proxies>', 'count requests without a key by the address X-Forwarded-For gives, believing this many proxy hops (1 for one proxy in front) or these proxy addresses and CIDR ranges').argParser(optionParser(parseTrustProxy)))
    .addOption(new Option('--shutdown-grace <seconds>', 'on SIGTERM or SIGINT, how long requests in flight get to finish (a second signal stops at once)').default(defaultShutdownGraceMs / 1000).argParser(wholeNumber(0)))
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
}

/** PORT and HOST from the environment, where the command line gives none. */
function fromEnvironment(command: Command, options: CliOptions, io: CliIo): void {
  if (command.getOptionValueSource('port') === 'default' && io.env.PORT !== undefined) {
    try {
      options.port = wholeNumber(0)(io.env.PORT);
    } catch (error) {
      throw new Error(`PORT=${io.env.PORT} is not a port: ${(error as Error).message}`);
    }
  }
  if (command.getOptionValueSource('host') === 'default' && io.env.HOST) options.host = io.env.HOST;
  const token = io.env[controlTokenVariable];
  if (options.controlToken === undefined && token !== undefined) {
    // Set but empty is a secret that did not arrive (an unset CI variable): starting open would hide that.
    if (token.trim() === '') throw new Error(`${controlTokenVariable} is set but empty, which would leave the control API open to everyone. Give it the token, or unset it.`);
    checkControlToken(token, controlTokenVariable);
    options.controlToken = token;
  }
}

/**
 * Runs the mock until SIGINT or SIGTERM (from `io.signals`), then shuts it down: requests in flight
 * get the grace period, the state is saved. Resolves with the exit code: 0 after a clean stop,
 * 1 when it could not start, 128 + the signal's number when a second signal cut the shutdown short.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const command = mockProgram(io);
  let options: CliOptions;
  try {
    command.parse(argv, { from: 'user' });
    options = command.opts<CliOptions>();
    fromEnvironment(command, options, io);
    // Before anything starts: an origin written without its scheme would be accepted and never match.
    if (options.cors) checkCorsOrigins(options.corsOrigin, '--cors-origin');
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    io.stderr.write(`pets-mock: ${(error as Error).message}\n`);
    return 1;
  }

  let redis: { url: string; prefix: string; replicaId?: string } | undefined;
  try {
    redis = resolveRedisOptions(options, io.env);
  } catch (error) {
    io.stderr.write(`pets-mock: ${(error as Error).message}\n`);
    return 1;
  }

  const path = (file: string) => resolve(io.cwd, file);
  let profile: DeploymentProfile | undefined;
  try {
    profile = options.profile === undefined ? undefined : await loadProfile(path(options.profile));
  } catch (error) {
    io.stderr.write(`pets-mock: --profile: ${(error as Error).message}\n`);
    return 1;
  }
  const accessLogOn = !options.quiet && ['info', 'debug', 'trace'].includes(options.logLevel);
  let server: MockServer;
  try {
    const generated = options.seed !== undefined || options.pets !== undefined;
    server = await startMockServer({
      port: options.port,
      host: options.host,
      pets: generated ? { seed: options.seed, count: options.pets } : { file: path(options.fixtures) },
      keys: await loadKeysFile(path(options.keys)),
      corsOrigins: options.cors ? options.corsOrigin : false,
      bodyLimit: options.bodyLimit,
      logLevel: options.logLevel,
      logStream: io.stdout,
      ...(accessLogOn ? { accessLog: (text: string) => void io.stdout.write(text) } : {}),
      ban: { threshold: options.banThreshold, seconds: options.banSeconds },
      ...(options.keylessLimit ? { keylessLimits: options.keylessLimit } : {}),
      defaultStatus: options.defaultStatus === 'none' ? null : (options.defaultStatus as never),
      control: options.control,
      strict: options.strict,
      ratelimitHeaders: options.ratelimitHeaders,
      ...(profile ? { profile } : {}),
      ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
      ...(options.latency ? { latency: options.latency } : {}),
      watch: options.watch,
      ...(options.stateFile ? { stateFile: path(options.stateFile) } : {}),
      requestLogSize: options.requestLogSize,
      shutdownGraceMs: options.shutdownGrace * 1000,
      ...(redis ? { redis } : {}),
      ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    });
  } catch (error) {
    io.stderr.write(`pets-mock: ${(error as Error).message}\n`);
    return 1;
  }

  const log = server.mock.log;
  const controlUrl = `${server.url.slice(0, -API_PREFIX.length)}${CONTROL_PREFIX}`;
  const replica = server.mock.state.log.replica;
  log.info(`Pet Adoption API mock serving ${server.url} with ${await server.mock.state.store.count()} pets${redis ? ` in Redis at ${redactRedisUrl(redis.url)} (prefix ${redis.prefix}, replica ${replica})` : ''}${options.control ? `; control API at ${controlUrl}${options.controlToken !== undefined ? ' (token required)' : ''}` : ''}${options.watch ? '; watching the spec and fixtures' : ''}`);
  // Open is right on a laptop; on an address others reach, anyone could reset the mock or delete its keys.
  if (options.control && options.controlToken === undefined && !isLoopbackHost(options.host)) {
    log.warn(`The control API at ${controlUrl} needs no token, and the mock listens on ${options.host}, which other machines may reach: anyone who does can reset the mock and change or delete its keys. Set --control-token (or ${controlTokenVariable}), or --no-control.`);
  }
  io.serving?.(server.url);

  // The first signal starts a graceful shutdown; a second one cuts it short.
  let first: StopSignal | undefined;
  let forcedBy: StopSignal | undefined;
  let stopRequested: () => void = () => {};
  const stopping = new Promise<void>((resolveStop) => (stopRequested = resolveStop));
  const listeners = {
    SIGINT: () => onSignal('SIGINT'),
    SIGTERM: () => onSignal('SIGTERM'),
  };
  function onSignal(signal: StopSignal): void {
    if (first === undefined) {
      first = signal;
      stopRequested();
      return;
    }
    forcedBy ??= signal;
    log.warn({ signal }, 'second signal: closing every connection now');
    server.forceClose();
  }
  io.signals?.on('SIGINT', listeners.SIGINT);
  io.signals?.on('SIGTERM', listeners.SIGTERM);
  await stopping;
  log.info({ signal: first }, `shutting down: finishing requests in flight (at most ${options.shutdownGrace} s), then saving`);
  try {
    await server.close();
  } finally {
    io.signals?.off('SIGINT', listeners.SIGINT);
    io.signals?.off('SIGTERM', listeners.SIGTERM);
  }
  log.info('stopped');
  return forcedBy === undefined ? 0 : 128 + (forcedBy === 'SIGINT' ? 2 : 15);
}
