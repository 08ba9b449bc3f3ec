import { afterAll, beforeAll, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
let base: string;
beforeAll(async () => {
  mock = await testMock();
  base = await mock.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => mock.app.close());

it('gives 200 parallel creates over HTTP 200 distinct ids, all readable', async () => {
  const headers = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };
  const created = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    fetch(`${base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `Pet ${i}`, categoryId: (i % 8) + 1 }) })
      .then(async (res) => ({ status: res.status, pet: await res.json() }))));
  expect(created.every((c) => c.status === 201)).toBe(true);
  const ids = new Set(created.map((c) => c.pet.id));
  expect(ids.size).toBe(200);
  const read = await Promise.all(created.map(({ pet }) => fetch(`${base}/v1/pets/${pet.id}`, { headers }).then((res) => res.json())));
  expect(read).toEqual(created.map((c) => c.pet));
  expect(await mock.app.mock.store.count()).toBe(60 + 200);
});
