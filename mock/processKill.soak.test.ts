// A kill -9 never costs an id: three rounds of a spawned mock, each killed under 150 concurrent
// creates, its state file read by the next; every pet acknowledged with an id is that pet or gone,
// never another. Real processes and real time under load: the soak tier, not `npm test`.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from './testing/spawnMock.ts';

const running: SpawnedMock[] = [];
afterEach(() => {
  for (const mock of running.splice(0)) mock.child.kill('SIGKILL');
});

function start(args: string[]): SpawnedMock {
  const mock = spawnMock(['--quiet', ...args]);
  running.push(mock);
  return mock;
}

const auth = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };

describe('the mock process', () => {
  it("never gives an acknowledged id to another pet after kill -9 under create load", { timeout: 90_000 }, async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'pets-')), 'state.json');
    const acknowledged = new Map<number, { name: string }>();
    for (let round = 0; round < 3; round++) {
      const mock = start(['--state-file', file]);
      const base = await mock.serving;
      // Every pet the mock kept must be exactly the one acknowledged with its id.
      for (const [id, pet] of acknowledged) {
        const res = await fetch(`${base}/pets/${id}`, { headers: auth });
        if (res.status === 200) expect(await res.json()).toMatchObject(pet);
        else expect(res.status).toBe(404);
      }
      const creates = Array.from({ length: 150 }, (_, i) => fetch(`${base}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `Round ${round} pet ${i}`, categoryId: 1 }) })
        .then(async (res) => (res.status === 201 ? ((await res.json()) as { id: number; name: string }) : undefined), () => undefined));
      // Kill once some creates are acknowledged, while the others are still in flight.
      const firstAcks = await Promise.all(creates.slice(0, 50));
      mock.child.kill('SIGKILL');
      for (const pet of [...firstAcks, ...(await Promise.all(creates.slice(50)))]) {
        if (!pet) continue;
        expect(acknowledged.has(pet.id), `id ${pet.id} was handed out twice`).toBe(false);
        acknowledged.set(pet.id, { name: pet.name });
      }
      await mock.closed;
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);
  });
});
