import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

// In a file of its own: test files run in separate processes, so Prism's shared worker is not
// loaded yet when this test starts (another file's mocks cannot have warmed it).
let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const prefer = (url: string, value: string) => mock.call({ url, headers: { prefer: value } });

describe('Prism loading', () => {
  it('answers requests in flight while Prism loads, before the first answer that needs Prism', async () => {
    const order: string[] = [];
    const forced = prefer('/v1/pets', 'code=200, dynamic=true, seed=1').then((res) => {
      order.push('prism');
      return res;
    });
    const plain = Array.from({ length: 20 }, (_, i) => mock.call({ url: `/v1/pets?limit=${i + 1}` }).then((res) => {
      order.push('store');
      return res;
    }));
    const answers = await Promise.all(plain);
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect((await forced).statusCode).toBe(200);
    // Prism's first answer needs its worker loaded (seconds of CPU); every store answer came first.
    expect(order.indexOf('prism')).toBe(20);
  });
});
