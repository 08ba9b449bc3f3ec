import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { compileSchema } from '../../spec/compileSchema.ts';
import { componentSchema, defaultSpecPath, loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import type { Pet } from '../../spec/types.ts';
import { defaultKeysFile, defaultPetsFile, loadPetsFile } from '../../fixtures/loadFixtures.ts';
import { API_PREFIX, buildMock, openRedisStateFor, type MockOptions } from '../app.ts';
import { createPrismResponder, type PrismResponder } from '../prism/prismResponder.ts';
import { validateSpecInWorker } from './validateSpecInWorker.ts';
import { loadKeysFile } from '../state/loadKeysFile.ts';
import { MockState } from '../state/mockState.ts';
import type { RedisState } from '../redis/openRedisState.ts';
import { IdJournal } from './idJournal.ts';
import { lingerOnClose } from './lingeringClose.ts';
import { installNodeLevelAnswers, refuseWithoutHost } from './nodeLevelAnswers.ts';
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
 * Runs the mock on a real port. The HTTP server hands every request to the current app, so
 * `--watch` can swap in an app built from an edited spec or fixtures file without a restart:
 * a new MockState carrying the pets created at run time (when the new spec still accepts them),
 * keys, counters, clock and request log, and a new app around it, swapped in together. Prism
 * is loaded in a worker once the mock listens, and kept across reloads that leave the spec as it was.
 */
export async function startMockServer(options: ServerOptions): Promise<MockServer> {
  const specPath = resolve(options.specPath ?? defaultSpecPath);
  const source: PetsSource = options.pets ?? { file: defaultPetsFile };
  // Dereference now and validate once serving: validation costs more than the rest of the start.
  let spec = await loadSpec(specPath, { validate: false });
  const fixtures = await loadPets(source, spec);
  const keys = options.keys ?? (await loadKeysFile(defaultKeysFile));

  // With a state file: start from it, above the id high-water mark, and refuse to start when it
  // cannot be written (a mock that acknowledges creates it cannot save would lose them silently).
  if (options.stateFile && options.redis) throw new Error('--state-file cannot be used with --redis: Redis holds the state and keeps it across restarts. Leave out one of them.');
  const saved = options.stateFile ? await readStateFile(options.stateFile, compileSchema(componentSchema(spec, 'Pets'))) : undefined;
  const journal = options.stateFile ? await IdJournal.open(`${options.stateFile}.ids`) : undefined;
  // Where the Redis connection reports an outage and a return, once per change: the app's log.
  let redisLog: { info(message: string): void; warn(message: string): void } | undefined;
  // With Redis, one connection serves every app a reload builds, and is closed at shutdown.
  const redisState: RedisState | undefined = options.redis
    ? await openRedisStateFor(options, fixtures, keys, { info: (m) => redisLog?.info(m), warn: (m) => redisLog?.warn(m) })
    : undefined;
  // In memory: the state a reload carries into the next app, and the state file's source.
  let memory = redisState ? undefined : MockState.create({ ...options, fixtures, keys, ids: journal, startState: saved });
  const initial = redisState ?? memory!;
  if (journal && memory) {
    // Continue above every id ever handed out, saved or not.
    memory.store.replaceAll(memory.store.all(), Math.max(memory.store.nextId, journal.reservedThrough + 1));
    await journal.reserve(memory.store.nextId).catch((error: Error) => {
      throw new Error(`Cannot write the id journal ${journal.file}: ${error.message}. Create its folder, fix its permissions, or give another --state-file.`);
    });
  }

  let prism: PrismResponder = createPrismResponder(spec, options.logLevel);
  let app: FastifyInstance;
  try {
    app = await buildMock({ ...options, pets: fixtures, spec, state: initial, prism });
    await app.ready();
  } catch (error) {
    await redisState?.close();
    throw error;
  }
  const log = app.log;
  redisLog = log;

  const writer = options.stateFile
    ? new StateFileWriter(options.stateFile, () => ({ pets: memory!.store.all(), nextId: memory!.store.nextId }), (error) => log.error(`Could not write the state file ${options.stateFile}: ${error.message}`))
    : undefined;
  if (writer && options.onStateSaved) writer.onWritten = options.onStateSaved;
  let unsubscribe = writer && memory ? memory.store.subscribe(() => writer.changed()) : () => {};
  // A new state file holds the starting state at once, so a crash before the first change loses nothing.
  if (writer) await writer.write().catch(async (error: Error) => {
    await app.close();
    await prism.close();
    await redisState?.close();
    throw error;
  });

  let shuttingDown = false;
  // Connections, tracked once each (not per request): at shutdown their in-flight responses get
  // `Connection: close` (Node's `_httpMessage` is the response a socket is writing).
  const sockets = new Set<Socket>();
  /** During shutdown: the answer closes its connection, and a connection gone idle is closed at once. */
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    res.once('close', () => setImmediate(() => server.closeIdleConnections()));
  };
  const server = createServer({
    // A missing Host is answered below as an Error (refuseWithoutHost), not by Node's empty 400.
    requireHostHeader: false,
    connectionsCheckingInterval: options.timeoutCheckIntervalMs ?? 1000,
    headersTimeout: options.headersTimeoutMs ?? 60_000,
    requestTimeout: options.requestTimeoutMs ?? 300_000,
  }, (req, res) => {
    if (refuseWithoutHost(req, res, () => app.mock)) return;
    if (shuttingDown) closeAfter(res);
    app.routing(req, res);
  });
  // Longer than the idle timeouts of common load balancers (60 s), so they never reuse a closed connection.
  server.keepAliveTimeout = 72_000;
  installNodeLevelAnswers(server, () => app.mock);
  server.on('connection', (socket: Socket) => {
    lingerOnClose(socket);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolveListen());
  }).catch(async (error: Error) => {
    // Nothing is left running when the port is taken: the caller reports the reason.
    unsubscribe();
    await app.close();
    throw new Error(`Cannot listen on ${options.host}:${options.port}: ${error.message}. Give another --port (0 picks a free one).`);
  });
  // Serving now. A second later, once the first answers are out, Prism loads in its worker (a
  // request that needs it sooner loads it at once); two seconds after that, the spec is validated
  // in another. Neither load competes for the CPU with the first answers or with the other, and a
  // mock stopped within a second (a script, a test) loads neither.
  const warming = setTimeout(() => prism.warm(), 1000);
  warming.unref();
  // The document last found valid: a reload that leaves it as it was (only the fixtures changed)
  // does not validate it again. The dereferenced document, not the file's text: a spec may keep
  // parts in other files its $refs name.
  let validDocument: unknown;
  /** Resolves once the spec file is found valid (in a worker), unless `document` already was. */
  const validateSpecFile = async (document: unknown): Promise<void> => {
    if (validDocument !== undefined && isDeepStrictEqual(document, validDocument)) return;
    await validateSpecInWorker(specPath);
    validDocument = document;
  };
  const validation = setTimeout(() => {
    validateSpecFile(spec.document).catch((error: Error) => {
      if (!shuttingDown) log.error(`${specPath} is not a valid OpenAPI document: ${error.message}. The mock serves it as it is; fix it (with --watch the fix is picked up).`);
    });
  }, 3000);
  validation.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}${API_PREFIX}`;

  let reloading = Promise.resolve(true);
  const reload = (): Promise<boolean> => (reloading = reloading.then(async () => {
    const old = app;
    let nextPrism: PrismResponder | undefined;
    try {
      const nextSpec = await loadSpec(specPath, { validate: false });
      await validateSpecFile(nextSpec.document);
      const nextFixtures = await loadPets(source, nextSpec);
      const validate = compileSchema(componentSchema(nextSpec, 'Pet'));
      // In Redis the pets stay where they are (every replica shares them): the new fixtures are what
      // a reset goes back to. In memory the created pets the new spec accepts are carried over.
      redisState?.useFixtures(nextFixtures, keys);
      const carried = memory?.carriedInto(nextFixtures, (pet) => validate(pet));
      const state = carried?.state ?? redisState!;
      const specChanged = !isDeepStrictEqual(nextSpec.document, spec.document);
      nextPrism = specChanged ? createPrismResponder(nextSpec, options.logLevel) : prism;
      const next = await buildMock({ ...options, pets: nextFixtures, spec: nextSpec, state, prism: nextPrism });
      await next.ready();
      // After every await: copy the pets once more and swap in the same tick, so a pet created
      // while the new app was being built is not lost.
      const dropped = carried?.catchUp() ?? 0;
      if (dropped > 0) log.warn(`Reload: ${dropped} created pets no longer match the spec (or clash with a fixture id) and were dropped.`);
      app = next;
      memory = carried?.state;
      spec = nextSpec;
      unsubscribe();
      unsubscribe = writer && memory ? memory.store.subscribe(() => writer.changed()) : () => {};
      writer?.changed();
      if (specChanged) {
        const oldPrism = prism;
        prism = nextPrism;
        prism.warm();
        await oldPrism.close();
      }
      await old.close();
      log.info(`Reloaded ${specPath}${'file' in source ? ` and ${source.file}` : ''}: ${await Promise.resolve(app.mock.store.count()).catch(() => "?")} pets${specChanged ? '' : '; Prism kept (the spec is unchanged)'}.`);
      return true;
    } catch (error) {
      if (nextPrism && nextPrism !== prism) await nextPrism.close();
      log.error(`Reload failed, still serving the previous version: ${(error as Error).message}`);
      return false;
    }
  }));

  const stopWatching = options.watch ? watchFiles([specPath, ...('file' in source ? [resolve(source.file)] : [])], () => void reload().then((ok) => options.onReloaded?.(ok))) : () => {};

  let closing: Promise<void> | undefined;
  let cutAll = () => server.closeAllConnections();
  return {
    url,
    app: () => app,
    reload,
    forceClose: () => cutAll(),
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        stopWatching();
        clearTimeout(warming);
        clearTimeout(validation);
        for (const socket of sockets) {
          const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
          if (res && !res.writableFinished) closeAfter(res);
        }
        const closed = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
        server.closeIdleConnections();
        // A connection that has not sent a byte has no request in flight, but Node does not count it
        // as idle (its headers timer runs): it would hold the shutdown for the whole grace period.
        for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
        const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? defaultShutdownGraceMs);
        cutAll = () => {
          clearTimeout(grace);
          server.closeAllConnections();
        };
        await closed;
        clearTimeout(grace);
        await reloading;
        unsubscribe();
        await writer?.flush();
        if (writer?.lastWriteSucceeded) await journal?.settle(memory!.store.nextId - 1).catch((error: Error) => log.error(`Could not settle the id journal ${journal.file}: ${error.message}`));
        await app.close();
        await prism.close();
        await redisState?.close();
      })();
      return closing;
    },
  };
}
