import { watch, type FSWatcher } from 'node:fs';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createAjv } from '../../spec/createAjv.ts';
import { componentSchema, defaultSpecPath, loadSpec, validateSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import type { Pet } from '../../spec/types.ts';
import { defaultPetsFile, loadPetsFile } from '../../fixtures/loadFixtures.ts';
import { API_PREFIX, buildMock, type MockOptions } from '../app.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { readStateFile, StateFileWriter } from './stateFile.ts';

export type PetsSource = { file: string } | { seed?: number; count?: number };

export interface ServerOptions extends Omit<MockOptions, 'spec' | 'pets' | 'startState' | 'carry'> {
  port: number;
  host: string;
  specPath?: string;
  /** Where the pets come from: a fixtures file (default fixtures/pets.json) or the generator. */
  pets?: PetsSource;
  /** Keep pets and the next id in this file, and start from it when it exists. */
  stateFile?: string;
  /** Reload the spec and the fixtures file when they change. */
  watch?: boolean;
}

export interface MockServer {
  /** Where the API is served, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The app answering right now (a reload swaps it). */
  app(): FastifyInstance;
  /** Reloads the spec and the fixtures; false, with the old version still serving, when they are broken. */
  reload(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * What Node's HTTP parser refuses never reaches fastify: answer it with an Error body too (fastify
 * does the same for servers it creates itself).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const apiError = error.code === 'HPE_HEADER_OVERFLOW'
    ? new ApiError('HEADERS_TOO_LARGE')
    : new ApiError('BAD_REQUEST', `The request is not valid HTTP/1.1 (${error.code ?? error.message}). Check the request line and headers.`);
  const body = JSON.stringify(apiError.toBody());
  socket.end(`HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

async function loadPets(source: PetsSource, spec: LoadedSpec): Promise<Pet[]> {
  if ('file' in source) return loadPetsFile(source.file, createAjv(), componentSchema(spec, 'Pets'));
  // Faker is loaded only when pets are generated: reading the fixtures file needs none of it.
  const { generatePets } = await import('../../fixtures/generatePets.ts');
  return generatePets(source);
}

/**
 * Runs the mock on a real port. The HTTP server hands every request to the current app, so
 * `--watch` can swap in an app built from an edited spec or fixtures file without a restart;
 * pets created at run time move over when the new spec still accepts them, and counters, keys,
 * the clock and the request log carry over as they are.
 */
export async function startMockServer(options: ServerOptions): Promise<MockServer> {
  const specPath = resolve(options.specPath ?? defaultSpecPath);
  const source: PetsSource = options.pets ?? { file: defaultPetsFile };
  // Dereference now and validate once serving: validation costs more than the rest of the start.
  const spec = await loadSpec(specPath, { validate: false });
  let fixtures = await loadPets(source, spec);
  const saved = options.stateFile ? await readStateFile(options.stateFile, createAjv().compile(componentSchema(spec, 'Pets'))) : undefined;

  let app = await buildMock({ ...options, spec, pets: fixtures, ...(saved ? { startState: saved } : {}) });
  await app.ready();
  const log = app.log;

  const writer = options.stateFile
    ? new StateFileWriter(options.stateFile, () => ({ pets: app.mock.store.all(), nextId: app.mock.store.nextId }), (error) => log.error({ err: error }, `Could not write the state file ${options.stateFile}`))
    : undefined;
  let unsubscribe = writer ? app.mock.store.subscribe(() => writer.changed()) : () => {};
  // A new state file holds the starting state at once, so a crash before the first change loses nothing.
  await writer?.flush();

  const server: Server = createServer((req, res) => app.routing(req, res));
  server.keepAliveTimeout = 72_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolveListen());
  });
  // A moment after start, so the validation (a tenth of a second of CPU) does not hold up the first answers.
  setTimeout(() => {
    validateSpec(specPath).catch((error: Error) => log.error(`${specPath} is not a valid OpenAPI document: ${error.message}. The mock serves it as it is; fix it (with --watch the fix is picked up).`));
  }, 1000).unref();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}${API_PREFIX}`;

  let reloading = Promise.resolve(true);
  const reload = (): Promise<boolean> => (reloading = reloading.then(async () => {
    const old = app;
    try {
      const nextSpec = await loadSpec(specPath);
      const nextFixtures = await loadPets(source, nextSpec);
      const next = await buildMock({ ...options, spec: nextSpec, pets: nextFixtures, carry: old.mock });
      await next.ready();
      // Pets created at run time (ids the old fixtures did not have) stay, if the new spec accepts
      // them. They are copied here, after every await, and the swap follows in the same tick, so
      // a pet created while the new app was being built is not lost.
      const fixtureIds = new Set(fixtures.map((p) => p.id));
      const newIds = new Set(nextFixtures.map((p) => p.id));
      const validate = createAjv().compile(componentSchema(nextSpec, 'Pet'));
      const created = old.mock.store.all().filter((p) => !fixtureIds.has(p.id));
      const kept = created.filter((p) => validate(p) && !newIds.has(p.id));
      if (kept.length < created.length) log.warn(`Reload: ${created.length - kept.length} created pets no longer match the spec (or clash with a fixture id) and were dropped.`);
      next.mock.store.replaceAll([...nextFixtures, ...kept], old.mock.store.nextId);
      app = next;
      fixtures = nextFixtures;
      unsubscribe();
      unsubscribe = writer ? app.mock.store.subscribe(() => writer.changed()) : () => {};
      writer?.changed();
      await old.close();
      log.info(`Reloaded ${specPath}${'file' in source ? ` and ${source.file}` : ''}: ${app.mock.store.size} pets.`);
      return true;
    } catch (error) {
      log.error(`Reload failed, still serving the previous version: ${(error as Error).message}`);
      return false;
    }
  }));

  const watchers: FSWatcher[] = [];
  if (options.watch) {
    let timer: NodeJS.Timeout | undefined;
    const files = [specPath, ...('file' in source ? [resolve(source.file)] : [])];
    for (const dir of new Set(files.map((f) => dirname(f)))) {
      // Watch the folder, not the file: editors often save by writing a new file and renaming it.
      const names = new Set(files.filter((f) => dirname(f) === dir).map((f) => basename(f)));
      watchers.push(watch(dir, (_, name) => {
        if (!name || !names.has(name.toString())) return;
        clearTimeout(timer);
        timer = setTimeout(() => void reload(), 150);
      }));
    }
  }

  return {
    url,
    app: () => app,
    reload,
    async close() {
      for (const w of watchers) w.close();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeIdleConnections();
      });
      await reloading;
      await writer?.flush();
      await app.close();
    },
  };
}
