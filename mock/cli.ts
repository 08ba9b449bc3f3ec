#!/usr/bin/env node
// Starts the mock: `npm start` (PORT and HOST from the environment) or `npm run mock -- --help`.
import { Command, InvalidArgumentError, Option } from 'commander';
import { createAjv } from '../spec/createAjv.ts';
import { loadSpec } from '../spec/loadSpec.ts';
import { generatePets } from '../fixtures/generatePets.ts';
import { defaultKeysFile, defaultPetsFile, loadKeysFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { petStatuses } from '../spec/types.ts';
import { API_PREFIX, buildMock, defaultBan, defaultBodyLimit } from './app.ts';

function wholeNumber(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`Give a whole number of ${min} or more.`);
    return n;
  };
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
}

const program = new Command('pets-mock')
  .description('A stateful mock of the Pet Adoption API, with per-plan rate limits, demo keys and CORS.')
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
  .showHelpAfterError();

program.parse();
const options = program.opts<CliOptions>();

try {
  const spec = await loadSpec();
  const generated = options.seed !== undefined || options.pets !== undefined;
  const pets = generated
    ? generatePets({ seed: options.seed, count: options.pets })
    : await loadPetsFile(options.fixtures, createAjv(), spec.document.components!.schemas!.Pets!);
  const keys = await loadKeysFile(options.keys);

  const app = await buildMock({
    spec,
    pets,
    keys,
    corsOrigins: options.cors ? options.corsOrigin : false,
    bodyLimit: options.bodyLimit,
    logLevel: options.logLevel,
    ban: { threshold: options.banThreshold, seconds: options.banSeconds },
    defaultStatus: options.defaultStatus === 'none' ? null : (options.defaultStatus as never),
  });

  // Finish the requests in flight, then exit, on Ctrl-C or a container stop.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(() => process.exit(0), () => process.exit(1));
    });
  }

  const address = await app.listen({ port: options.port, host: options.host });
  app.log.info(`Pet Adoption API mock serving ${address}${API_PREFIX} with ${pets.length} pets and ${keys.length} API keys (${keys.map((k) => k.plan).join(', ')})`);
} catch (error) {
  console.error(`pets-mock: ${(error as Error).message}`);
  process.exit(1);
}
