import { afterEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';
import type { PrismAnswer, PrismResponder } from './prismResponder.ts';

/** A Prism still loading: it answers once `load()` is called, as the real one does once its worker has loaded. */
function loadingPrism(): PrismResponder & { load(): void; asked: number } {
  let load!: () => void;
  const loaded = new Promise<void>((resolve) => (load = resolve));
  const self = {
    asked: 0,
    load,
    async respond(): Promise<PrismAnswer> {
      self.asked++;
      await loaded;
      return { status: 200, headers: { 'content-type': 'application/json' }, body: [] };
    },
    warm() {},
    async close() {},
  };
  return self;
}

let mock: TestMock | undefined;
afterEach(() => mock?.app.close());

describe('Prism loading', () => {
  it('answers every request that needs no Prism while Prism loads, and the one that needs it once loaded', async () => {
    const prism = loadingPrism();
    mock = await testMock({ prism });
    let forcedDone = false;
    const forced = mock.call({ url: '/v1/pets', headers: { prefer: 'code=200, dynamic=true, seed=1' } }).then((res) => ((forcedDone = true), res));
    const plain = await Promise.all(Array.from({ length: 20 }, (_, i) => mock!.call({ url: `/v1/pets?limit=${i + 1}` })));
    expect(plain.map((res) => res.statusCode)).toEqual(Array(20).fill(200));
    expect(prism.asked).toBe(1);
    expect(forcedDone).toBe(false);
    prism.load();
    expect((await forced).statusCode).toBe(200);
  });
});
