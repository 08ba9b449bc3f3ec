// Helpers for the mock's own tests: a fresh app per test, on a clock the test moves.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadSpec, type LoadedSpec } from '../spec/loadSpec.ts';
import { generatePets } from '../fixtures/generatePets.ts';
import { defaultKeysFile } from '../fixtures/loadFixtures.ts';
import { loadKeysFile } from './state/loadKeysFile.ts';
import { buildMock, type MockOptions } from './buildMock.ts';
import { ManualClock } from './state/clock.ts';

let specPromise: Promise<LoadedSpec> | undefined;

/** The spec is read-only, so tests share one parse of it; every app still gets its own state. */
export function testSpec(): Promise<LoadedSpec> {
  specPromise ??= loadSpec();
  return specPromise;
}


export interface TestMock {
  app: FastifyInstance;
  clock: ManualClock;
  /** inject() with `Authorization: Bearer <key>` added (demo-enterprise unless told otherwise). */
  call: (options: InjectOptions & { key?: string | null }) => Promise<LightMyRequestResponse>;
}

export async function testMock(options: MockOptions = {}): Promise<TestMock> {
  // Half past twelve: far from a minute or day boundary, so windows do not roll mid-test.
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 0));
  const app = await buildMock({
    spec: await testSpec(),
    pets: generatePets({ count: 60 }),
    keys: await loadKeysFile(defaultKeysFile),
    clock,
    ...options,
  });
  const call: TestMock['call'] = ({ key = 'demo-enterprise', headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers } });
  return { app, clock, call };
}
