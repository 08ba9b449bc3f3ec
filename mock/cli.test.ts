import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest, Agent } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePets } from '../fixtures/generatePets.ts';
import { runMockCli, type RunningCli } from './testing/runMockCli.ts';

const auth = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };

async function stop(cli: RunningCli): Promise<number> {
  cli.signal('SIGTERM');
  return cli.exit;
}

describe('the mock CLI', () => {
  it('lists every option in --help, with the environment variables it reads', async () => {
    const cli = runMockCli(['--help']);
    expect(await cli.exit).toBe(0);
    for (const option of ['--port', '--host', '--seed', '--pets', '--fixtures', '--keys', '--cors-origin', '--no-cors', '--body-limit', '--log-level', '--quiet', '--ban-threshold', '--ban-seconds', '--keyless-limit', '--default-status', '--no-control', '--control-token', '--latency', '--watch', '--state-file', '--request-log-size', '--ratelimit-headers', '--shutdown-grace', '--trust-proxy', '--replica-id']) {
      expect(cli.output()).toContain(option);
    }
    expect(cli.output()).toMatch(/env:\s+PORT/);
    expect(cli.output()).toMatch(/env:\s+HOST/);
    expect(cli.output()).toMatch(/env:\s+PETS_MOCK_CONTROL_TOKEN/);
  });

  it('listens where PORT and HOST say and prints one access-log line per API request, key redacted', async () => {
    const cli = runMockCli([], { PORT: '0', HOST: '127.0.0.1' });
    const base = await cli.serving;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await fetch(`${base}/pets`)).status).toBe(401);
    expect((await fetch(`${base}/pets?limit=1`, { headers: { ...auth, 'x-conformance-run-id': '0b6f1c2e-run' } })).status).toBe(200);
    expect(await stop(cli)).toBe(0);
    const lines = cli.output().split('\n').filter((l) => / \/v1\/pets/.test(l) && !l.startsWith('{'));
    // The client's address, and the run id when the request carried one (in memory, no replica).
    expect(lines).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} GET \/v1\/pets 401 \d+\.\dms missing 127\.0\.0\.1$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} GET \/v1\/pets\?limit=1 200 \d+\.\dms demo…\(15\) 127\.0\.0\.1 run=0b6f1c2e-run$/),
    ]);
    expect(cli.output()).not.toContain('demo-enterprise');
  });

  it('prints no access log with --quiet', async () => {
    const cli = runMockCli(['--port', '0', '--quiet']);
    const base = await cli.serving;
    await fetch(`${base}/pets`);
    expect(await stop(cli)).toBe(0);
    expect(cli.output()).not.toMatch(/GET \/v1\/pets 401/);
    expect(cli.output()).toContain('serving');
  });

  it('generates the pets from --seed and --pets', async () => {
    const cli = runMockCli(['--port', '0', '--seed', '7', '--pets', '5', '--quiet']);
    const base = await cli.serving;
    const pets = await (await fetch(`${base}/pets?limit=100`, { headers: auth })).json();
    expect(pets).toEqual(generatePets({ seed: 7, count: 5 }).reverse());
    expect(await stop(cli)).toBe(0);
  });

  it('refuses to start on an invalid fixtures file, naming the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pets-'));
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify([{ id: 1, name: 'Rex' }]));
    const cli = runMockCli(['--port', '0', '--fixtures', file]);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toContain(file);
    expect(cli.output()).toMatch(/categoryId is required/);
  });

  it('refuses to start on a fixtures file whose ids leave no room for the next id below 2^53', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pets-'));
    const file = join(dir, 'edge.json');
    await writeFile(file, JSON.stringify([{ id: Number.MAX_SAFE_INTEGER, name: 'Edge', categoryId: 1 }]));
    const cli = runMockCli(['--port', '0', '--fixtures', file]);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toMatch(/9007199254740991.*2\^53 - 1/);
  });

  it('still has the pets created before when restarted with the same --state-file, and continues their ids', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'pets-')), 'state.json');
    const first = runMockCli(['--port', '0', '--quiet', '--state-file', file]);
    const base = await first.serving;
    const created = await (await fetch(`${base}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Keeper', categoryId: 2 }) })).json();
    expect(await stop(first)).toBe(0);

    const second = runMockCli(['--port', '0', '--quiet', '--state-file', file]);
    const again = await second.serving;
    expect(await (await fetch(`${again}/pets/${created.id}`, { headers: auth })).json()).toEqual(created);
    const next = await (await fetch(`${again}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Next', categoryId: 2 }) })).json();
    expect(next.id).toBe(created.id + 1);
    expect(await stop(second)).toBe(0);
  });

  it.each([
    ['a folder that does not exist', (dir: string) => join(dir, 'missing', 'state.json')],
    ['a folder that is a file', (dir: string) => join(dir, 'plain-file', 'state.json')],
  ])('refuses to start with a --state-file in %s, naming the file and the reason', async (_, where) => {
    const dir = await mkdtemp(join(tmpdir(), 'pets-'));
    await writeFile(join(dir, 'plain-file'), 'not a folder');
    const file = where(dir);
    const cli = runMockCli(['--port', '0', '--state-file', file]);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toContain(file);
    expect(cli.output()).toMatch(/ENOENT|ENOTDIR/);
  });

  it('serves the control API by default and not with --no-control', async () => {
    const on = runMockCli(['--port', '0', '--quiet']);
    expect((await fetch((await on.serving).replace(/\/v1$/, '/__mock/clock'))).status).toBe(200);
    expect(await stop(on)).toBe(0);
    const off = runMockCli(['--port', '0', '--quiet', '--no-control']);
    expect((await fetch((await off.serving).replace(/\/v1$/, '/__mock/clock'), { headers: auth })).status).toBe(404);
    expect(await stop(off)).toBe(0);
  });

  it('requires the token from --control-token on every control request, and leaves the API to its keys', async () => {
    const cli = runMockCli(['--port', '0', '--quiet', '--control-token', 'cli-sandbox-token']);
    const control = (await cli.serving).replace(/\/v1$/, '/__mock/clock');
    const refused = await fetch(control);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'CONTROL_TOKEN_REQUIRED' });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="pets-mock control"');
    expect((await fetch(control, { headers: { authorization: 'Bearer wrong-token' } })).status).toBe(401);
    expect((await fetch(control, { headers: { authorization: 'bearer cli-sandbox-token' } })).status).toBe(200);
    expect((await fetch((await cli.serving) + '/pets?limit=1', { headers: auth })).status).toBe(200);
    expect(await stop(cli)).toBe(0);
    expect(cli.output()).toMatch(/control API at http:\/\/127\.0\.0\.1:\d+\/__mock \(token required\)/);
    expect(cli.output()).not.toContain('cli-sandbox-token');
  });

  it('takes the token from PETS_MOCK_CONTROL_TOKEN, --control-token winning, and refuses one set but empty', async () => {
    const env = runMockCli(['--port', '0', '--quiet'], { PETS_MOCK_CONTROL_TOKEN: 'env-token' });
    const control = (await env.serving).replace(/\/v1$/, '/__mock/clock');
    expect((await fetch(control)).status).toBe(401);
    expect((await fetch(control, { headers: { authorization: 'Bearer env-token' } })).status).toBe(200);
    expect(await stop(env)).toBe(0);
    const both = runMockCli(['--port', '0', '--quiet', '--control-token', 'flag-token'], { PETS_MOCK_CONTROL_TOKEN: 'env-token' });
    const bothControl = (await both.serving).replace(/\/v1$/, '/__mock/clock');
    expect((await fetch(bothControl, { headers: { authorization: 'Bearer env-token' } })).status).toBe(401);
    expect((await fetch(bothControl, { headers: { authorization: 'Bearer flag-token' } })).status).toBe(200);
    expect(await stop(both)).toBe(0);
    const empty = runMockCli(['--port', '0'], { PETS_MOCK_CONTROL_TOKEN: '' });
    expect(await empty.exit).toBe(1);
    expect(empty.output()).toContain('PETS_MOCK_CONTROL_TOKEN is set but empty, which would leave the control API open to everyone. Give it the token, or unset it.');
  });

  it('refuses a control token a client could not send as a bearer token', async () => {
    const flag = runMockCli(['--control-token', 'two words']);
    expect(await flag.exit).toBe(1);
    expect(flag.output()).toMatch(/--control-token.*has characters a bearer token cannot carry\. Use letters, digits/s);
    const env = runMockCli([], { PETS_MOCK_CONTROL_TOKEN: 'quote"d' });
    expect(await env.exit).toBe(1);
    expect(env.output()).toMatch(/PETS_MOCK_CONTROL_TOKEN \(7 characters\) has characters a bearer token cannot carry/);
  });

  it('refuses to start on a --cors-origin that is not an origin, showing the one to give', async () => {
    const cli = runMockCli(['--port', '0', '--cors-origin', 'http://app.test', 'localhost:5173']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toBe('pets-mock: --cors-origin: "localhost:5173" is not an origin: it has no scheme, so it would never match. Give "http://localhost:5173".\n');
  });

  it('refuses undefined query parameters with 400 under --strict, and names them in a header without it', async () => {
    const strict = runMockCli(['--port', '0', '--quiet', '--strict']);
    const res = await fetch(`${await strict.serving}/pets?offset=100`, { headers: auth });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'UNKNOWN_QUERY_PARAMETER', message: expect.stringContaining('"offset"') });
    expect(await stop(strict)).toBe(0);
    const lenient = runMockCli(['--port', '0', '--quiet']);
    const ignored = await fetch(`${await lenient.serving}/pets?offset=100`, { headers: auth });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-mock-ignored-query')).toBe('offset');
    expect(await stop(lenient)).toBe(0);
  });

  it('sends the ratelimit draft\'s fields beside X-RateLimit-* under --ratelimit-headers draft', async () => {
    const drafted = runMockCli(['--port', '0', '--quiet', '--ratelimit-headers', 'draft']);
    const res = await fetch(`${await drafted.serving}/pets?limit=1`, { headers: auth });
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"(minute|day)";r=${res.headers.get('x-ratelimit-remaining')};t=\\d+$`));
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/);
    expect(await stop(drafted)).toBe(0);
  });

  it('warns once when it listens beyond loopback with an open control API, and not with a token or on loopback', async () => {
    const warning = /"level":40.*The control API at http:\/\/[^ ]+\/__mock needs no token, and the mock listens on 0\.0\.0\.0, which other machines may reach: anyone who does can reset the mock and change or delete its keys\. Set --control-token \(or PETS_MOCK_CONTROL_TOKEN\), or --no-control\./;
    const open = runMockCli(['--port', '0', '--quiet', '--host', '0.0.0.0']);
    await open.serving;
    expect(await stop(open)).toBe(0);
    expect(open.output().split('\n').filter((line) => warning.test(line))).toHaveLength(1);
    for (const argv of [['--host', '0.0.0.0', '--control-token', 'a-token'], ['--host', '0.0.0.0', '--no-control'], ['--host', '127.0.0.1']]) {
      const quiet = runMockCli(['--port', '0', '--quiet', ...argv]);
      await quiet.serving;
      expect(await stop(quiet)).toBe(0);
      expect(quiet.output(), argv.join(' ')).not.toMatch(/needs no token/);
    }
  });

  it('refuses --replica-id without Redis, where there is one replica', async () => {
    const cli = runMockCli(['--port', '0', '--replica-id', 'web-1']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toContain('--replica-id needs Redis: give --redis URL (or PETS_MOCK_REDIS_URL) too, or leave the id out.');
  });

  it('exits 1 naming the reason when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const cli = runMockCli(['--port', String((taken.address() as AddressInfo).port), '--quiet']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toMatch(/EADDRINUSE/);
    await new Promise((resolve) => taken.close(resolve));
  });

  it('counts requests without a valid key at --keyless-limit, a window left out keeping the Free plan\'s', async () => {
    const cli = runMockCli(['--port', '0', '--quiet', '--keyless-limit', '3/minute,500/day']);
    const base = await cli.serving;
    const url = `${base}/pets?limit=1`;
    // On a frozen clock, so that no minute ends between the requests.
    const frozen = await fetch(`${base.replace('/v1', '')}/__mock/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"freeze": true}' });
    expect(await frozen.json()).toMatchObject({ frozen: true });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await fetch(url));
    expect(answers.map((res) => res.status)).toEqual([401, 401, 401, 429]);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    expect((await fetch(url, { headers: auth })).status).toBe(200);
    expect(await stop(cli)).toBe(0);
    const dayOnly = runMockCli(['--port', '0', '--quiet', '--keyless-limit', '500/day']);
    expect((await fetch(`${await dayOnly.serving}/pets?limit=1`)).headers.get('x-ratelimit-limit')).toBe('60');
    expect(await stop(dayOnly)).toBe(0);
  });

  it('refuses a --keyless-limit that is not N/minute, N/day or both, saying what to give', async () => {
    for (const [given, says] of [
      ['30/hour', /"30\/hour" is no keyless limit\. Give N\/minute, N\/day or both, as 60\/minute,1000\/day/],
      ['0/minute', /"0\/minute" is no keyless limit: a limit is a whole number from 1 to/],
      ['30/minute,40/minute', /gives the minute's limit twice\. Give each window once/],
      ['thirty', /"thirty" is no keyless limit/],
    ] as const) {
      const cli = runMockCli(['--keyless-limit', given]);
      expect(await cli.exit, given).toBe(1);
      expect(cli.output()).toMatch(/option '--keyless-limit <limits>' argument/);
      expect(cli.output()).toMatch(says);
    }
  });

  it('refuses a malformed --latency', async () => {
    const cli = runMockCli(['--latency', 'slow']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toMatch(/neither MS nor MIN-MAX/);
  });

  it('refuses a --trust-proxy that is neither a number of hops nor proxy addresses', async () => {
    const cli = runMockCli(['--trust-proxy', 'everyone']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toMatch(/"everyone".*neither a number of proxy hops/);
  });

  it('refuses a port that is not a number, from the command line or from PORT', async () => {
    const flag = runMockCli(['--port', 'abc']);
    expect(await flag.exit).toBe(1);
    expect(flag.output()).toMatch(/whole number/);
    const env = runMockCli([], { PORT: 'abc' });
    expect(await env.exit).toBe(1);
    expect(env.output()).toMatch(/PORT=abc.*whole number/);
  });
});

describe('shutting down', () => {
  /** Sends a GET on `agent`'s keep-alive connection; resolves with the status and the Connection header. */
  const get = (url: string, agent: Agent, headers: Record<string, string> = {}) => new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    httpRequest(url, { agent, headers: { ...auth, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    }).on('error', reject).end();
  });

  it('answers a request in flight with Connection: close, closes idle keep-alive connections and saves the state', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'pets-')), 'state.json');
    const cli = runMockCli(['--port', '0', '--quiet', '--state-file', file]);
    const base = await cli.serving;
    const idle = new Agent({ keepAlive: true });
    const busy = new Agent({ keepAlive: true });
    const created = await (await fetch(`${base}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Saved', categoryId: 3 }) })).json();
    expect((await get(`${base}/pets?limit=1`, idle)).connection).toBe('keep-alive');
    // Held long enough for the next request and the signal to arrive while it is in flight on a busy machine.
    const inFlight = get(`${base}/pets?limit=1`, busy, { prefer: 'delay=2000' });
    // Another answer after the held request was sent: the mock has read it by then.
    await get(`${base}/pets?limit=2`, new Agent());
    cli.signal('SIGTERM');
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    expect(await cli.exit).toBe(0);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.pets).toContainEqual(created);
    idle.destroy();
    busy.destroy();
  });

  it('closes a connection that has sent nothing yet at once, without waiting for the grace period', async () => {
    const cli = runMockCli(['--port', '0', '--quiet', '--shutdown-grace', '600']);
    const base = new URL(await cli.serving);
    const silent = connect(Number(base.port), base.hostname);
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    silent.on('error', () => {});
    await new Promise((resolve) => silent.once('connect', resolve));
    // An answer on another connection: the mock has accepted the silent one by then.
    await get(`${base.href}/pets?limit=1`, new Agent());
    cli.signal('SIGTERM');
    expect(await cli.exit).toBe(0);
    await silentClosed;
  });

  it('stops at once on a second signal, without waiting for the grace period', async () => {
    const cli = runMockCli(['--port', '0', '--quiet', '--shutdown-grace', '600']);
    const base = await cli.serving;
    const held = get(`${base}/pets?limit=1`, new Agent(), { prefer: 'delay=60000' }).catch((error: Error) => error);
    await get(`${base}/pets?limit=2`, new Agent());
    cli.signal('SIGTERM');
    cli.signal('SIGINT');
    // 128 + SIGINT's number: the shutdown was cut short by the second signal.
    expect(await cli.exit).toBe(130);
    expect(await held).toBeInstanceOf(Error);
  });
});
