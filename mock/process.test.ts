// What is about the process itself: signals reach it and it exits, its state saved. (That a kill -9
// never costs an id, three spawned mocks under create load, is in the soak tier: processKill.soak.test.ts.)
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

});
