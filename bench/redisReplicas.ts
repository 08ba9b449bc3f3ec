// The bench's Redis scenario (issue 13): two mock processes on one redis-server, the load split
// between them, measured in the same run as the in-memory mock.
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { monitorRedis } from '../mock/redis/testing/monitorRedis.ts';
import { redisServerPath, startRedisServer } from '../mock/redis/testing/redisServer.ts';
import { load, type LoadRequest, type LoadResult } from './load.ts';
import type { Scenario } from './scenarios.ts';
import { startMock, type RunningServer } from './servers.ts';

export const replicasName = '2 mocks on one Redis';

/** Whether this machine can run the scenario (Debian's redis-server package). */
export function canBenchRedis(): boolean {
  return existsSync(redisServerPath);
}

function combine(a: LoadResult, b: LoadResult): LoadResult {
  const statuses: Record<string, number> = { ...a.statuses };
  for (const [k, v] of Object.entries(b.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return { rps: a.rps + b.rps, p50: Math.max(a.p50, b.p50), p99: Math.max(a.p99, b.p99), statuses, errors: a.errors + b.errors };
}

async function commandsProcessed(client: Redis): Promise<number> {
  const info = await client.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? NaN);
}

/**
 * The commands a replica sends Redis per request (round trips: a script is one, however many
 * commands it runs inside), counted with MONITOR over `count` requests sent one at a time, after the
 * load: the request log's write, sent after each answer, included.
 */
async function roundTripsPerRequest(redisUrl: string, base: string, request: LoadRequest, count = 20): Promise<number> {
  const client = new Redis(redisUrl);
  const monitor = await monitorRedis(redisUrl);
  let sent = 0;
  monitor.onCommand(({ args, source }) => {
    if (source !== 'lua' && !/^(info|echo)$/i.test(args[0] ?? '')) sent++;
  });
  try {
    for (let i = 0; i < count; i++) {
      const init: RequestInit = { method: request.method, ...(request.headers ? { headers: request.headers } : {}), ...(request.body ? { body: request.body } : {}) };
      await (await fetch(`${base}${request.path}`, init)).arrayBuffer();
    }
    // The log's write leaves after each answer: give the last one time to arrive before the marker.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await monitor.caughtUp(client);
    return sent / count;
  } finally {
    monitor.close();
    client.disconnect();
  }
}

/**
 * Runs every scenario `rounds` times against two replicas at once, each with half the connections.
 * `onResult` is told each round's figures, as the other servers' are. Returns, per scenario, the
 * commands Redis executed per request (inside scripts included) and the round trips a request cost.
 */
export async function benchRedisReplicas(
  scenarios: readonly Scenario[],
  { seconds, connections, rounds, fromSource }: { seconds: number; connections: number; rounds: number; fromSource: boolean },
  onResult: (server: RunningServer, scenario: Scenario, result: LoadResult, peakMb: number, note: string) => void,
): Promise<{ commands: Map<string, number[]>; roundTrips: Map<string, number> }> {
  const redis = await startRedisServer();
  const stats = new Redis(redis.url, { lazyConnect: true });
  const perRequest = new Map<string, number[]>();
  const roundTrips = new Map<string, number>();
  const replicas: RunningServer[] = [];
  try {
    await stats.connect();
    const args = ['--redis', redis.url, '--redis-prefix', 'bench:', '--quiet'];
    // One after the other: the first seeds Redis, the second finds it seeded.
    replicas.push(await startMock(args, `${replicasName} (A)`, fromSource));
    replicas.push(await startMock(args, `${replicasName} (B)`, fromSource));
    const [a, b] = replicas as [RunningServer, RunningServer];
    const half = { seconds, connections: Math.max(1, Math.floor(connections / 2)) };
    for (const scenario of scenarios) await Promise.all([load(a.base, scenario.request, { ...half, seconds: Math.min(1, seconds) }), load(b.base, scenario.request, { ...half, seconds: Math.min(1, seconds) })]);
    for (let round = 0; round < rounds; round++) {
      for (const scenario of scenarios) {
        const before = await commandsProcessed(stats);
        const [ra, rb] = await Promise.all([load(a.base, scenario.request, half), load(b.base, scenario.request, half)]);
        const after = await commandsProcessed(stats);
        const result = combine(ra, rb);
        const answered = Object.values(result.statuses).reduce((sum, n) => sum + n, 0);
        // The two INFO calls are commands too; a replica's own background work is nil.
        (perRequest.get(scenario.id) ?? perRequest.set(scenario.id, []).get(scenario.id)!).push((after - before - 1) / Math.max(1, answered));
        const peakMb = Math.max((await a.memory()).peakMb, (await b.memory()).peakMb);
        if (!roundTrips.has(scenario.id)) roundTrips.set(scenario.id, await roundTripsPerRequest(redis.url, a.base, Array.isArray(scenario.request) ? scenario.request[0]! : scenario.request));
        onResult({ ...a, name: replicasName }, scenario, result, peakMb, `load split evenly over 2 processes; ${fmtCommands(perRequest.get(scenario.id)!)} Redis commands per request, inside scripts included; ${roundTrips.get(scenario.id)!.toFixed(1)} round trips`);
      }
    }
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
    stats.disconnect();
    await redis.stop();
  }
  return { commands: perRequest, roundTrips };
}

function fmtCommands(samples: number[]): string {
  return samples[samples.length - 1]!.toFixed(1);
}
