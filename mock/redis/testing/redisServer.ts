// A real redis-server for the Redis tests: Debian's, on a free 127.0.0.1 port, without persistence
// (`--save '' --appendonly no`), stopped by the test. Also the replicas the tests open against it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../common/testing/freePort.ts';
import { ManualClock } from '../../state/clock.ts';
import { openRedisState, type RedisStateOptions, type RedisState } from '../openRedisState.ts';
import { afterAll, afterEach, beforeAll } from 'vitest';
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


async function launch(port: number, extraArgs: readonly string[], tlsDir: string | undefined): Promise<ChildProcess> {
  const listen = tlsDir
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', join(tlsDir, 'server.crt'), '--tls-key-file', join(tlsDir, 'server.key'), '--tls-ca-cert-file', join(tlsDir, 'ca.crt'), '--tls-auth-clients', 'no']
    : ['--port', String(port)];
  const child = spawn(redisServerPath, [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A private CA and a certificate for 127.0.0.1 it signed, made with the openssl command. */
async function makeCertificates(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=pets-mock test CA');
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  await writeFile(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'ext.cnf');
  return dir;
}

/**
 * `extraArgs` are more redis-server options, e.g. `['--requirepass', 'secret']`; `tls` serves TLS
 * only (a rediss:// URL), with a certificate from a private CA whose certificate is `ca`.
 */
export async function startRedisServer(extraArgs: readonly string[] = [], { tls = false } = {}): Promise<TestRedisServer & { ca?: string }> {
  const tlsDir = tls ? await makeCertificates() : undefined;
  // The port is free when asked for, and may be taken before redis-server binds it: then another.
  let port = await freePort();
  let child: ChildProcess | undefined;
  for (let tries = 1; !child; tries++) {
    try {
      child = await launch(port, extraArgs, tlsDir);
    } catch (error) {
      if (tries >= 5 || !/Address already in use/i.test(String(error))) throw error;
      port = await freePort();
    }
  }
  return {
    url: `${tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    port,
    ...(tlsDir ? { ca: await readFile(join(tlsDir, 'ca.crt'), 'utf8') } : {}),
    async stop() {
      if (!child) return;
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      // A paused server handles the SIGTERM once it runs again.
      child.kill('SIGCONT');
      await closed;
      child = undefined;
      if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
    },
    async start() {
      child ??= await launch(port, extraArgs, tlsDir);
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
export function openReplica(server: TestRedisServer, prefix: string, options: Partial<RedisStateOptions> = {}): Promise<RedisState> {
  return openRedisState({
    url: server.url,
    prefix,
    fixtures: testFixtures,
    keys: testKeys,
    clock: new ManualClock(testStart),
    ban: { threshold: 5, seconds: 120 },
    requestLogSize: 100,
    // Room for a reply to a test that floods one event loop with hundreds of requests on a busy
    // machine; a test of the timeout itself gives its own.
    commandTimeoutMs: 5_000,
    ...options,
  });
}

/**
 * One redis-server for a test file, started before its tests and stopped after them, and a list
 * for the replicas its tests open, closed after each test.
 */
export function useRedisServer<Opened extends { close(): Promise<unknown> } = RedisState>(): { readonly server: TestRedisServer; readonly open: Opened[] } {
  let server: TestRedisServer | undefined;
  const open: Opened[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((opened) => opened.close()));
  });
  return {
    get server() {
      if (!server) throw new Error('The test redis-server is not started yet: use it inside a test or a hook.');
      return server;
    },
    open,
  };
}
