// What is about the process itself: signals reach it, it exits, and a kill -9 never costs an id.
import { mkdtemp, readFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
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

/** One GET on `agent`; resolves with the Connection header, or the error that ended it. */
const poll = (url: string, agent: Agent) => new Promise<string | Error>((resolve) => {
  httpRequest(url, { agent, headers: auth }, (res) => {
    res.resume();
    res.on('end', () => resolve(String(res.headers.connection)));
  }).on('error', resolve).end();
});

describe('the mock process', () => {
  it('exits 0 on SIGTERM while a client keeps polling on a keep-alive connection, and saves its state', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'pets-')), 'state.json');
    const mock = start(['--state-file', file]);
    const base = await mock.serving;
    const created = await (await fetch(`${base}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Polly', categoryId: 4 }) })).json();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await poll(`${base}/pets?limit=1`, agent)).toBe('keep-alive');
    mock.child.kill('SIGTERM');
    // The poller goes on until the mock tells it the connection closes (or it is gone).
    let last: string | Error = 'keep-alive';
    while (last === 'keep-alive') last = await poll(`${base}/pets?limit=1`, agent);
    expect(await mock.closed).toEqual({ code: 0, signal: null });
    expect(JSON.parse(await readFile(file, 'utf8')).pets).toContainEqual(created);
    agent.destroy();
  });

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
