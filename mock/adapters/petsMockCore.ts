import type { FastifyInstance } from 'fastify';
// From app.ts, not ../index.ts: that entry also carries the CLI (and commander), which an adapter never needs.
import { buildMock, type MockOptions } from '../app.ts';
import { loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import { MockAddress } from './mockAddress.ts';
import { createPetsMockControl, type PetsMockControl } from './petsMockControl.ts';
import { appControlSend, dispatchInProcess, readyInProcess } from './dispatchInProcess.ts';
import type { PetsMockHost } from './petsMockHost.ts';

export type { PlainRequest, PlainResponse } from './petsMockHost.ts';

export interface PetsMockOptions extends Omit<MockOptions, 'carry' | 'startState' | 'logLevel'> {
  /** Where the frontend calls the API: any origin and path. Default `http://127.0.0.1:4010/v1`. */
  baseUrl?: string;
  /** Generate the starting pets from this seed (as `npm start -- --seed`) instead of the fixtures file. */
  seed?: number;
  /** Generate this many starting pets (as `npm start -- --pets`). */
  count?: number;
  /**
   * Answer the control API at `/__mock` beside the base URL too (as the server does), for pages that
   * reset the mock over HTTP. The handle works either way. Default: true.
   */
  control?: boolean;
  /**
   * Require `Authorization: Bearer <controlToken>` on the control API, as `--control-token` does
   * for the server: a page's own control requests must send it. The handle sends it itself.
   */
  controlToken?: string | undefined;
}

/** Headers about the connection, which an in-process answer does not have. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** The mock built with `buildMock`, as a host of the adapters. */
export type PetsMockCore = PetsMockHost;

/**
 * One mock, built with `buildMock` as the server builds it, answering plain requests in-process.
 * Both adapters (MSW, Playwright) sit on this, so the three surfaces share one behaviour.
 */
export async function createPetsMockCore(options: PetsMockOptions = {}): Promise<PetsMockCore> {
  const { baseUrl, seed, count, control = true, ...mockOptions } = options;
  const address = new MockAddress(baseUrl);
  const pets = mockOptions.pets ?? (seed !== undefined || count !== undefined ? await generate(seed, count) : undefined);
  // Dereferenced only: the package's own spec is validated by its tests, and validation costs ten times more.
  const spec = mockOptions.spec ?? (await loadSpec(undefined, { validate: false }));
  const app: FastifyInstance = await buildMock({
    ...mockOptions,
    spec,
    ...(pets ? { pets } : {}),
    // The handle drives the control API through inject, so it is always built; `control` only
    // decides whether a page's own requests reach it.
    control: true,
    logLevel: false,
  });
  // Now, before a test fakes timers: fastify's boot runs on process.nextTick and setTimeout.
  await readyInProcess(app);

  const handles = (url: string | URL) => address.toMockPath(url, { control }) !== undefined;
  let closed = false;

  return {
    address,
    spec,
    control: createPetsMockControl(appControlSend(app), { controlToken: mockOptions.controlToken }),
    handles,
    arrival: () => app.answerOrder.answered,
    async handle({ method, url, headers, body, arrivedAfter }) {
      const path = address.toMockPath(url, { control });
      if (path === undefined) throw new Error(`The pets mock at ${address.baseUrl} was handed ${url}, which is not under it.`);
      if (closed) throw new Error(`The pets mock at ${address.baseUrl} was closed, and ${method} ${url} still reached it. Remove its handlers or routes, or create a new mock.`);
      // Not inject(): it waits on setImmediate and process.nextTick, which a test's fake timers hold.
      const res = await dispatchInProcess(app, { method, url: path, headers, body, arrivedAfter });
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (hopByHop.has(name)) continue;
        out[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (out.location) out.location = address.fromMockPath(out.location);
      const empty = method.toUpperCase() === 'HEAD' || res.status === 204 || res.status === 304;
      return { status: res.status, headers: out, body: empty ? null : new Uint8Array(res.body) };
    },
    close: async () => {
      closed = true;
      await app.close();
    },
  };
}

async function generate(seed: number | undefined, count: number | undefined) {
  // Faker is loaded only when pets are generated: the fixtures file needs none of it.
  const { generatePets } = await import('../../fixtures/generatePets.ts');
  return generatePets({ ...(seed !== undefined ? { seed } : {}), ...(count !== undefined ? { count } : {}) });
}
