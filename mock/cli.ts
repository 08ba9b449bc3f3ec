#!/usr/bin/env node
// Starts the mock: `npm start` (PORT and HOST from the environment) or `npm run mock -- --help`.
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadKeysFile, defaultKeysFile, defaultPetsFile } from '../fixtures/loadFixtures.ts';
import { petStatuses } from '../spec/types.ts';
import { wholeNumber } from '../common/wholeNumberOption.ts';
import { defaultBan, defaultBodyLimit, defaultRequestLogSize } from './app.ts';
import { parseLatency, type Latency } from './api/latencyPlugin.ts';
import { startMockServer } from './server/startMockServer.ts';

function latency(value: string): Latency {
  try {
    return parseLatency(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

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
  banThreshold: number;
  banSeconds: number;
  defaultStatus: string;
  control: boolean;
  latency?: Latency;
  watch: boolean;
  stateFile?: string;
  requestLogSize: number;
}

const program = new Command('pets-mock')
  .description('A stateful mock of the Pet Adoption API, with per-plan rate limits, demo keys, CORS and a control API.')
  .addOption(new Option('-p, --port <port>', 'port to listen on').env('PORT').default(4010).argParser(wholeNumber(0)))
  .addOption(new Option('-H, --host <host>', 'address to listen on').env('HOST').default('127.0.0.1'))
  .addOption(new Option('--seed <n>', 'generate the pets with this seed instead of reading the fixtures file').argParser(wholeNumber(0)))
  .addOption(new Option('--pets <n>', 'generate this many pets instead of reading the fixtures file').argParser(wholeNumber(0)))
  .option('--fixtures <file>', 'pets file to start with (a JSON array of Pet)', defaultPetsFile)
  .option('--keys <file>', 'API keys file (a JSON array of {key, plan, perMinute?, perDay?})', defaultKeysFile)
  .option('--cors-origin <origins...>', 'origins allowed by CORS; * allows any', ['*'])
  .option('--no-cors', 'turn CORS off')
  .addOption(new Option('--body-limit <bytes>', 'largest request body in bytes; larger ones get 413').default(defaultBodyLimit).argParser(wholeNumber(1)))
  .addOption(new Option('--log-level <level>', 'log level').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'))
  .addOption(new Option('--ban-threshold <n>', 'refused requests in one throttled spell that ban a key').default(defaultBan.threshold).argParser(wholeNumber(1)))
  .addOption(new Option('--ban-seconds <n>', 'how long a ban lasts, in seconds').default(defaultBan.seconds).argParser(wholeNumber(1)))
  .addOption(new Option('--default-status <status>', 'status of a pet created without one ("none" leaves it absent)').choices([...petStatuses, 'none']).default('available'))
  .option('--no-control', 'turn the control API under /__mock off')
  .addOption(new Option('--latency <ms>', 'delay every API answer by MS, or by a random MIN-MAX milliseconds').argParser(latency))
  .option('--watch', 'reload the spec and the fixtures file when they change', false)
  .option('--state-file <file>', 'keep the pets in this file across restarts (written within a second of each change)')
  .addOption(new Option('--request-log-size <n>', 'requests kept for GET /__mock/requests').default(defaultRequestLogSize).argParser(wholeNumber(0)))
  .showHelpAfterError();

program.parse();
const options = program.opts<CliOptions>();

try {
  const generated = options.seed !== undefined || options.pets !== undefined;
  const mock = await startMockServer({
    port: options.port,
    host: options.host,
    pets: generated ? { seed: options.seed, count: options.pets } : { file: options.fixtures },
    keys: await loadKeysFile(options.keys),
    corsOrigins: options.cors ? options.corsOrigin : false,
    bodyLimit: options.bodyLimit,
    logLevel: options.logLevel,
    ban: { threshold: options.banThreshold, seconds: options.banSeconds },
    defaultStatus: options.defaultStatus === 'none' ? null : (options.defaultStatus as never),
    control: options.control,
    ...(options.latency ? { latency: options.latency } : {}),
    watch: options.watch,
    ...(options.stateFile ? { stateFile: options.stateFile } : {}),
    requestLogSize: options.requestLogSize,
  });

  // Finish the requests in flight and save the state, then exit, on Ctrl-C or a container stop.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      mock.app().log.info({ signal }, 'shutting down');
      mock.close().then(() => process.exit(0), () => process.exit(1));
    });
  }

  const { mock: state } = mock.app();
  mock.app().log.info(`Pet Adoption API mock serving ${mock.url} with ${state.store.size} pets${options.control ? `; control API at ${mock.url.replace(/\/v1$/, '/__mock')}` : ''}${options.watch ? '; watching the spec and fixtures' : ''}`);
} catch (error) {
  console.error(`pets-mock: ${(error as Error).message}`);
  process.exit(1);
}
