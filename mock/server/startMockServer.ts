import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { compileExactSchema } from '../../spec/compileExactSchema.ts';
import { componentSchema, defaultSpecPath, loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import type { StoredPet as Pet } from '../state/petJson.ts';
import { defaultKeysFile, defaultPetsFile, loadPetsFile } from '../../fixtures/loadFixtures.ts';
import { API_PREFIX } from '../core/prefixes.ts';
import type { MockOptions } from '../buildMock.ts';
import { openMock, type Mock } from '../core/openMock.ts';
import { serveNode } from '../adapters/nodeHttp.ts';
import { clientAddressOf } from '../adapters/clientAddress.ts';
import { loadKeysFile } from '../state/loadKeysFile.ts';
import { startHttpFront, type HttpFront } from './httpFront.ts';
import { IdJournal } from './idJournal.ts';
import { specFileValidator } from './specFileValidator.ts';
import { readStateFile, StateFileWriter } from './stateFile.ts';
import { watchFiles } from './watchFiles.ts';

export type PetsSource = { file: string } | { seed?: number; count?: number };

export interface ServerOptions extends Omit<MockOptions, 'spec' | 'pets' | 'startState' | 'state' | 'prism'> {
  port: number;
  host: string;
  specPath?: string;
  /** Where the pets come from: a fixtures file (default fixtures/pets.json) or the generator. */
  pets?: PetsSource;
  /** Keep pets and the next id in this file (and the id high-water mark beside it), and start from it when it exists. */
  stateFile?: string;
  /** Reload the spec and the fixtures file when they change. */
  watch?: boolean;
  /** How long requests in flight get to finish once shutdown starts, in milliseconds. Default: 10 s. */
  shutdownGraceMs?: number;
  /** Node's HTTP timeouts: a request's headers, and the whole request, must arrive within these (408 otherwise). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How often Node checks those timeouts. Default: every second. */
  timeoutCheckIntervalMs?: number;
  /** Told after each reload, with whether it succeeded (tests wait on it instead of polling). */
  onReloaded?: (ok: boolean) => void;
  /** Told after each write of the state file that reached the disk. */
  onStateSaved?: () => void;
}

export interface MockServer {
  /** Where the API is served, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The mock it serves: its state and log (a reload swaps the state in memory). */
  mock: Mock;
  /** Reloads the spec and the fixtures; false, with the old version still serving, when they are broken. */
  reload(): Promise<boolean>;
  /**
   * Shuts down: stops accepting, closes idle keep-alive connections at once, answers requests in
   * flight with `Connection: close`, cuts what is still open after the grace period, saves the
   * state. Calling it again returns the same promise.
   */
  close(): Promise<void>;
  /** Cuts every connection now (a second signal): close() then finishes without waiting. */
  forceClose(): void;
}

export const defaultShutdownGraceMs = 10_000;

async function loadPets(source: PetsSource, spec: LoadedSpec): Promise<Pet[]> {
  if ('file' in source) return loadPetsFile(source.file, compileExactSchema(componentSchema(spec, 'Pets')));
  // Faker is loaded only when pets are generated: reading the fixtures file needs none of it.
  const { generatePets } = await import('../../fixtures/generatePets.ts');
  return generatePets(source);
}

/**
 * Runs the mock on a real port: Node's HTTP server (httpFront.ts) hands every request to the mock
 * (adapters/nodeHttp.ts), so `--watch` has the mock reload an edited spec or fixtures file without
 * a restart (Mock.reload). Prism is loaded in a worker once the mock listens, and kept across
 * reloads that leave the spec as it was.
 */
export async function startMockServer(options: ServerOptions): Promise<MockServer> {
  const specPath = resolve(options.specPath ?? defaultSpecPath);
  const { pets: petsSource, ...appOptions } = options;
  const source: PetsSource = petsSource ?? { file: defaultPetsFile };
  // Dereference now and validate once serving: validation costs more than the rest of the start.
  let spec = await loadSpec(specPath, { validate: false });
  const keys = options.keys ?? (await loadKeysFile(defaultKeysFile));
  // With a state file: start from it, above the id high-water mark, and refuse to start when it
  // cannot be written (a mock that acknowledges creates it cannot save would lose them silently).
  if (options.stateFile && options.redis) throw new Error('--state-file cannot be used with --redis: Redis holds the state and keeps it across restarts. Leave out one of them.');
  const saved = options.stateFile ? await readStateFile(options.stateFile, compileExactSchema(componentSchema(spec, 'Pets'))) : undefined;
  const journal = options.stateFile ? await IdJournal.open(`${options.stateFile}.ids`) : undefined;
  const { trustProxy, ...mockOptions } = appOptions;
  const mock = await openMock({
    ...mockOptions,
    spec,
    pets: await loadPets(source, spec),
    keys,
    ...(saved ? { startState: saved } : {}),
    ...(journal ? { ids: journal } : {}),
  });
  const log = mock.log;

  let writer: StateFileWriter | undefined;
  let front: HttpFront | undefined;
  let unsubscribe = () => {};
  try {
    if (options.stateFile) {
      const file = options.stateFile;
      writer = new StateFileWriter(file, () => mock.snapshot()!, (error) => log.error(`Could not write the state file ${file}: ${error.message}`));
      if (options.onStateSaved) writer.onWritten = options.onStateSaved;
      unsubscribe = mock.onPetsChanged(() => writer!.changed());
      // A new state file holds the starting state at once, so a crash before the first change loses nothing.
      await writer.write();
    }
    const clientAddress = clientAddressOf(trustProxy);
    const route = serveNode(() => mock, { bodyLimit: mock.bodyLimit, clientAddress, log });
    front = await startHttpFront({ ...options, route, clientAddress, state: () => mock.state, methodNotAllowed: (method, url) => mock.methodNotAllowed(method, url) });
  } catch (error) {
    // Nothing is left running when the start fails: the caller reports the reason.
    unsubscribe();
    await mock.close();
    throw error;
  }
  // Serving now. A second later, once the first answers are out, Prism loads in its worker (a
  // request that needs it sooner loads it at once); two seconds after that, the spec is validated
  // in another. Neither load competes for the CPU with the first answers or with the other, and a
  // mock stopped within a second (a script, a test) loads neither.
  const warming = setTimeout(() => mock.warmPrism(), 1000);
  warming.unref();
  const validateSpecFile = specFileValidator(specPath);
  let shuttingDown = false;
  const validation = setTimeout(() => {
    validateSpecFile(spec.document).catch((error: Error) => {
      if (!shuttingDown) log.error(`${specPath} is not a valid OpenAPI document: ${error.message}. The mock serves it as it is; fix it (with --watch the fix is picked up).`);
    });
  }, 3000);
  validation.unref();

  let reloading = Promise.resolve(true);
  const reload = (): Promise<boolean> => (reloading = reloading.then(async () => {
    try {
      const nextSpec = await loadSpec(specPath, { validate: false });
      await validateSpecFile(nextSpec.document);
      const fixtures = await loadPets(source, nextSpec);
      const validate = compileExactSchema(componentSchema(nextSpec, 'Pet'));
      const { dropped, specChanged } = await mock.reload({ spec: nextSpec, fixtures, keep: (pet) => validate(pet) });
      spec = nextSpec;
      if (dropped > 0) log.warn(`Reload: ${dropped} created pets no longer match the spec (or clash with a fixture id) and were dropped.`);
      log.info(`Reloaded ${specPath}${'file' in source ? ` and ${source.file}` : ''}: ${await Promise.resolve(mock.state.store.count()).catch(() => '?')} pets${specChanged ? '' : '; Prism kept (the spec is unchanged)'}.`);
      return true;
    } catch (error) {
      log.error(`Reload failed, still serving the previous version: ${(error as Error).message}`);
      return false;
    }
  }));

  const stopWatching = options.watch ? watchFiles([specPath, ...('file' in source ? [resolve(source.file)] : [])], () => void reload().then((ok) => options.onReloaded?.(ok))) : () => {};

  let closing: Promise<void> | undefined;
  return {
    url: `${front.origin}${API_PREFIX}`,
    mock,
    reload,
    forceClose: () => front.forceClose(),
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        stopWatching();
        clearTimeout(warming);
        clearTimeout(validation);
        await front.close(options.shutdownGraceMs ?? defaultShutdownGraceMs);
        await reloading;
        unsubscribe();
        await writer?.flush();
        if (writer?.lastWriteSucceeded) await journal?.settle(mock.snapshot()!.nextId - 1).catch((error: Error) => log.error(`Could not settle the id journal ${journal.file}: ${error.message}`));
        await mock.close();
      })();
      return closing;
    },
  };
}
