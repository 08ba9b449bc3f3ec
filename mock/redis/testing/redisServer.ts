// A real redis-server for the Redis tests: Debian's, on a free 127.0.0.1 port, without persistence
// (`--save '' --appendonly no`), stopped by the test. Also the replicas the tests open against it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { ManualClock } from '../../clock.ts';
import { openRedisState, type RedisStateOptions, type RedisStores } from '../openRedisState.ts';
import { testFixtures, testKeys, testStart } from './testState.ts';

export { testFixtures, testKeys, testStart };

export const redisServerPath = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

export interface TestRedisServer {
  url: string;
  port: number;
  /** Stops the server (its data goes with it). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops the process without closing its connections (SIGSTOP): a Redis that hangs. */
  pause(): void;
  resume(): void;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

async function launch(port: number, extraArgs: readonly string[]): Promise<ChildProcess> {
  const child = spawn(redisServerPath, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('close', (code) => reject(new Error(`redis-server exited with ${code} before it was ready: ${output.slice(-500)}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

/** `extraArgs` are more redis-server options, e.g. `['--requirepass', 'secret']`. */
export async function startRedisServer(extraArgs: readonly string[] = []): Promise<TestRedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, extraArgs);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (!child) return;
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      // A paused server handles the SIGTERM once it runs again.
      child.kill('SIGCONT');
      await closed;
      child = undefined;
    },
    async start() {
      child ??= await launch(port, extraArgs);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}

let prefixes = 0;
/** A prefix of its own per test, so tests on one server never see each other's state. */
export function uniquePrefix(): string {
  return `test-${process.pid}-${++prefixes}:`;
}

/** One replica's state on the test server; each replica has its own base clock, as processes do. */
export function openReplica(server: TestRedisServer, prefix: string, options: Partial<RedisStateOptions> = {}): Promise<RedisStores> {
  return openRedisState({
    url: server.url,
    prefix,
    fixtures: testFixtures,
    keys: testKeys,
    clock: new ManualClock(testStart),
    ban: { threshold: 5, seconds: 120 },
    requestLogSize: 100,
    commandTimeoutMs: 1000,
    ...options,
  });
}
