import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { compileSchema } from '../../spec/compileSchema.ts';
import { componentSchema, defaultSpecPath, loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import type { Pet } from '../../spec/types.ts';
import { defaultKeysFile, defaultPetsFile, loadPetsFile } from '../../fixtures/loadFixtures.ts';
import { API_PREFIX, buildMock, type MockOptions } from '../app.ts';
import { createPrismResponder, type PrismResponder } from '../prism/prismResponder.ts';
import { loadKeysFile } from '../state/loadKeysFile.ts';
import { openState } from '../state/openState.ts';
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
  /** The app answering right now (a reload swaps it). */
  app(): FastifyInstance;
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
  if ('file' in source) return loadPetsFile(source.file, compileSchema(componentSchema(spec, 'Pets')));
  // Faker is loaded only when pets are generated: reading the fixtures file needs none of it.
  const { generatePets } = await import('../../fixtures/generatePets.ts');
  return generatePets(source);
}

/**
 * Runs the mock on a real port. The HTTP front hands every request to the current app, so
 * `--watch` can swap in an app built from an edited spec or fixtures file without a restart: the
 * state's reload (openState.ts) and a new app around it, swapped in together. Prism is loaded in a
 * worker once the mock listens, and kept across reloads that leave the spec as it was.
 */
export async function startMockServer(options: ServerOptions): Promise<MockServer> {
  const specPath = resolve(options.specPath ?? defaultSpecPath);
  const { pets: petsSource, ...appOptions } = options;
  const source: PetsSource = petsSource ?? { file: defaultPetsFile };
  // Dereference now and validate once serving: validation costs more than the rest of the start.
  let spec = await loadSpec(specPath, { validate: false });
  const keys = options.keys ?? (await loadKeysFile(defaultKeysFile));
  // Where the Redis connection reports an outage and a return, once per change: the app's log.
  let log: FastifyInstance['log'] | undefined;
  // With a state file: start from it, above the id high-water mark, and refuse to start when it
  // cannot be written (a mock that acknowledges creates it cannot save would lose them silently).
  if (options.stateFile && options.redis) throw new Error('--state-file cannot be used with --redis: Redis holds the state and keeps it across restarts. Leave out one of them.');
  const saved = options.stateFile ? await readStateFile(options.stateFile, compileSchema(componentSchema(spec, 'Pets'))) : undefined;
  const journal = options.stateFile ? await IdJournal.open(`${options.stateFile}.ids`) : undefined;
  const state = await openState({
    ...options,
    fixtures: await loadPets(source, spec),
    keys,
    startState: saved,
    ids: journal,
    logger: { info: (m) => log?.info(m), warn: (m) => log?.warn(m) },
  });

  let prism: PrismResponder = createPrismResponder(spec, options.logLevel);
  let app: FastifyInstance | undefined;
  let writer: StateFileWriter | undefined;
  let front: HttpFront | undefined;
  let unsubscribe = () => {};
  const closeAll = async () => {
    unsubscribe();
    await app?.close();
    await prism.close();
    await state.close();
  };
  try {
    app = await buildMock({ ...appOptions, spec, state: state.current, prism });
    await app.ready();
    log = app.log;
    if (options.stateFile) {
      const file = options.stateFile;
      writer = new StateFileWriter(file, () => state.snapshot()!, (error) => log!.error(`Could not write the state file ${file}: ${error.message}`));
      if (options.onStateSaved) writer.onWritten = options.onStateSaved;
      unsubscribe = state.onPetsChanged(() => writer!.changed());
      // A new state file holds the starting state at once, so a crash before the first change loses nothing.
      await writer.write();
    }
    front = await startHttpFront({ ...options, route: (req, res) => app!.handleNode(req, res), state: () => app!.mock, methodNotAllowed: (method, url) => app!.core.methodNotAllowed(method, url) });
  } catch (error) {
    // Nothing is left running when the start fails: the caller reports the reason.
    await closeAll();
    throw error;
  }
  // Serving now. A second later, once the first answers are out, Prism loads in its worker (a
  // request that needs it sooner loads it at once); two seconds after that, the spec is validated
  // in another. Neither load competes for the CPU with the first answers or with the other, and a
  // mock stopped within a second (a script, a test) loads neither.
  const warming = setTimeout(() => prism.warm(), 1000);
  warming.unref();
  const validateSpecFile = specFileValidator(specPath);
  let shuttingDown = false;
  const validation = setTimeout(() => {
    validateSpecFile(spec.document).catch((error: Error) => {
      if (!shuttingDown) log!.error(`${specPath} is not a valid OpenAPI document: ${error.message}. The mock serves it as it is; fix it (with --watch the fix is picked up).`);
    });
  }, 3000);
  validation.unref();

  let reloading = Promise.resolve(true);
  const reload = (): Promise<boolean> => (reloading = reloading.then(async () => {
    const old = app!;
    let nextPrism: PrismResponder | undefined;
    try {
      const nextSpec = await loadSpec(specPath, { validate: false });
      await validateSpecFile(nextSpec.document);
      const nextFixtures = await loadPets(source, nextSpec);
      const validate = compileSchema(componentSchema(nextSpec, 'Pet'));
      const next = state.reload(nextFixtures, (pet) => validate(pet));
      const specChanged = !isDeepStrictEqual(nextSpec.document, spec.document);
      nextPrism = specChanged ? createPrismResponder(nextSpec, options.logLevel) : prism;
      const nextApp = await buildMock({ ...appOptions, spec: nextSpec, state: next.state, prism: nextPrism });
      await nextApp.ready();
      // After every await: the state and the app are swapped in the same tick, so a pet created
      // while the new app was being built is not lost.
      const dropped = next.commit();
      if (dropped > 0) log!.warn(`Reload: ${dropped} created pets no longer match the spec (or clash with a fixture id) and were dropped.`);
      app = nextApp;
      spec = nextSpec;
      if (specChanged) {
        const oldPrism = prism;
        prism = nextPrism;
        prism.warm();
        await oldPrism.close();
      }
      await old.close();
      log!.info(`Reloaded ${specPath}${'file' in source ? ` and ${source.file}` : ''}: ${await Promise.resolve(app.mock.store.count()).catch(() => '?')} pets${specChanged ? '' : '; Prism kept (the spec is unchanged)'}.`);
      return true;
    } catch (error) {
      if (nextPrism && nextPrism !== prism) await nextPrism.close();
      log!.error(`Reload failed, still serving the previous version: ${(error as Error).message}`);
      return false;
    }
  }));

  const stopWatching = options.watch ? watchFiles([specPath, ...('file' in source ? [resolve(source.file)] : [])], () => void reload().then((ok) => options.onReloaded?.(ok))) : () => {};

  let closing: Promise<void> | undefined;
  return {
    url: `${front.origin}${API_PREFIX}`,
    app: () => app!,
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
        if (writer?.lastWriteSucceeded) await journal?.settle(state.snapshot()!.nextId - 1).catch((error: Error) => log!.error(`Could not settle the id journal ${journal.file}: ${error.message}`));
        await closeAll();
      })();
      return closing;
    },
  };
}
