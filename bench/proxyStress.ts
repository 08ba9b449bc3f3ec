#!/usr/bin/env node
// `npm run bench:proxy`: the validating proxy under what clients may throw at it, measured. The
// proxy runs in this process, alone on its event loop (monitorEventLoopDelay measures its stalls);
// the mock and every client run in processes of their own (bench/proxyStressClient.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { projectPath } from '../common/projectRoot.ts';
import { startProxy, type RunningProxy } from '../conformance/proxy/startProxy.ts';
import type { LoadResult } from './load.ts';
import { startMock } from './servers.ts';
import { markdownTable, median } from './table.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    unfinished: { type: 'string', default: '1000' },
    smoke: { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
    write: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(`Usage: npm run bench:proxy -- [options]
  --seconds N        traffic per scenario (default 5)
  --connections N    connections of the usual traffic (default 20)
  --unfinished N     unfinished connections (default 1000)
  --smoke            a tiny run that only checks the harness works
  --source           run the mock from its TypeScript source (no build needed)
  --write FILE       also write the results into FILE's proxy section (docs/performance.md)`);
  process.exit(0);
}
const seconds = args.smoke ? 0.5 : Number(args.seconds);
const connections = Number(args.connections);
const unfinishedCount = args.smoke ? 20 : Number(args.unfinished);
const log = (line: string) => console.error(line);
const gc = (globalThis as { gc?: () => void }).gc;
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');
const ms = (h: IntervalHistogram, p?: number) => (p === undefined ? h.max : h.percentile(p)) / 1e6;

/** A client process; its JSON lines as they come. */
function client(mode: string, options: Record<string, unknown>): { lines: AsyncIterator<string>; send(line: string): void; done: Promise<void>; child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/proxyStressClient.ts', mode, JSON.stringify(options)], { cwd: projectPath(), stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { lines, send: (line) => child.stdin!.write(`${line}\n`), done, child };
}
const nextJson = async <T>(lines: AsyncIterator<string>): Promise<T> => JSON.parse((await lines.next()).value as string) as T;

/** Resident memory and the JS heap (with what it holds outside: buffers), after a collection when `--expose-gc`. */
function memory(): { rssMb: number; heapMb: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rssMb: m.rss / 2 ** 20, heapMb: (m.heapUsed + m.external) / 2 ** 20 };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 600_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Gave up after 10 minutes waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * An idle process measuring its own event-loop delay meanwhile: what the machine's scheduler alone
 * does to a process (on a busy machine, far from nothing), beside which the proxy's stalls are read.
 */
function noise(): { stop(): Promise<{ max: number; p99: number }> } {
  const child = spawn(process.execPath, ['-e', `
    const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    process.stdin.once('data', () => { h.disable(); console.log(JSON.stringify({ max: h.max / 1e6, p99: h.percentile(99) / 1e6 })); process.exit(0); });`], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    stop: async () => {
      child.stdin!.write('stop\n');
      return nextJson(lines);
    },
  };
}

type Row = { scenario: string; loopMax: number; loopP99: number; noiseMax: number; cpuPerExchange: number; rps: number; p50: number; p99: number; extra: string };
const rows: Row[] = [];
const memoryRows: string[][] = [];
let bigLoop = NaN;

/** Runs the usual traffic through the proxy beside `beside`, measuring the proxy's event loop. */
async function withTraffic(proxy: RunningProxy, scenario: string, beside: () => Promise<string>): Promise<void> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const machine = noise();
  loop.enable();
  // CPU time is the scheduler's noise left out: what forwarding and judging one exchange cost this process.
  const cpu = process.cpuUsage();
  const exchanges = proxy.forwarded() + toSink.forwarded();
  const traffic = client('load', { base: `${proxy.url}/v1`, seconds, connections });
  const [result, extra] = await Promise.all([nextJson<LoadResult>(traffic.lines), beside()]);
  await Promise.all([proxy.live(), toSink.live()]);
  const spent = process.cpuUsage(cpu);
  const forwarded = proxy.forwarded() + toSink.forwarded() - exchanges;
  loop.disable();
  const idle = await machine.stop();
  rows.push({ scenario, loopMax: ms(loop), loopP99: ms(loop, 99), noiseMax: idle.max, cpuPerExchange: (spent.user + spent.system) / 1000 / forwarded, rps: result.rps, p50: result.p50, p99: result.p99, extra });
  log(`  ${scenario}: ${fmt(result.rps)} req/s, p99 ${result.p99} ms, loop max ${fmt(ms(loop), 1)} ms ${extra}`);
}

/**
 * A deployment of its own for what the mock would refuse: it reads heads of any size and any
 * number of lines, answers a GET at once (`/v1/big` with a 4 MiB list), and never a POST (whose
 * body never ends anyway).
 */
async function startSink(): Promise<{ base: string; stop(): void }> {
  const server = spawn(process.execPath, ['-e', `
    const pets = JSON.stringify(Array.from({ length: 57000 }, (_, i) => ({ id: i + 1, name: 'Pet number ' + i, categoryId: i % 7, status: 'available' })));
    const rate = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60) };
    const server = require('node:http').createServer({ maxHeaderSize: 1 << 20, requestTimeout: 0 }, (req, res) => {
      req.resume();
      if (req.method !== 'GET') return;
      res.writeHead(200, rate).end(req.url === '/v1/big' ? pets : '[]');
    });
    server.maxHeadersCount = 0;
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await nextJson<number>(createInterface({ input: server.stdout! })[Symbol.asyncIterator]());
  return { base: `http://127.0.0.1:${port}/v1`, stop: () => server.kill() };
}

const mock = await startMock(['--pets', '250'], 'mock', args.source);
const sink = await startSink();
const proxy = await startProxy({ target: mock.base });
// The connections that never finish stay open as long as the measurement needs: the proxy's own
// timeouts (20 s for a head, 120 s for a request, 35 s of silence) would close them first on a busy machine.
const toSink = await startProxy({ target: sink.base, headersTimeoutMs: 600_000, requestTimeoutMs: 600_000, idleTimeoutMs: 600_000, timeoutMs: 600_000 });
const started = memory();
try {
  log('warm-up');
  await nextJson(client('load', { base: `${proxy.url}/v1`, seconds: args.smoke ? 0.3 : 2, connections }).lines);

  log('scenarios');
  await withTraffic(proxy, 'the usual traffic alone', async () => '');

  await withTraffic(proxy, 'with GET /__proxy/report every 100 ms', async () => {
    const latencies: number[] = [];
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      const t = performance.now();
      await (await fetch(`${proxy.url}/__proxy/report`)).text();
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
    return `report: ${latencies.length} answered, median ${fmt(median(latencies), 1)} ms, slowest ${fmt(Math.max(...latencies), 1)} ms, after ${fmt(proxy.forwarded())} exchanges`;
  });

  for (const lines of [60_000, 2_000]) {
    await withTraffic(proxy, `with requests of ${fmt(lines)} header lines, 2 at a time`, async () => {
      // Sent to a deployment that reads any number of header lines, through a second proxy in this process.
      const flood = client('flood', { url: `${toSink.url}/v1/pets`, lines, seconds, connections: 2 });
      const { statuses, bytes } = await nextJson<{ statuses: Record<string, number>; bytes: number }>(flood.lines);
      return `floods of ${fmt(bytes / 1024)} KiB: ${Object.entries(statuses).map(([s, n]) => `${fmt(n)} × ${s}`).join(', ')}`;
    });
  }

  // A thousand connections that never finish: their heads whole (forwarded, the body never ends),
  // or never whole (never forwarded); what the proxy holds while they are open and after they are gone.
  for (const body of [true, false]) {
    const what = body ? `${fmt(unfinishedCount)} unfinished requests (200 KiB heads, forwarded, bodies never ending)` : `${fmt(unfinishedCount)} unfinished heads (200 KiB each, never whole)`;
    log(`  ${what}`);
    const before = memory();
    // The stalls while they open and while they are let go; the collections memory() forces are not the proxy's.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const open = client('unfinished', { url: `${toSink.url}/v1/pets`, count: unfinishedCount, headerBytes: 200 * 1024, body });
    await nextJson(open.lines);
    await until(() => toSink.stats().connections >= unfinishedCount && (!body || toSink.stats().inFlight >= unfinishedCount), `${unfinishedCount} connections open`);
    loop.disable();
    const during = memory();
    const held = toSink.stats();
    loop.enable();
    const closedAt = performance.now();
    open.send('close');
    await nextJson(open.lines);
    await until(() => toSink.stats().connections === 0 && toSink.stats().inFlight === 0, 'every connection let go');
    await toSink.live();
    const letGoMs = performance.now() - closedAt;
    await open.done;
    loop.disable();
    // Node lets go of a closed connection's objects over the next turns of its event loop: the heap
    // is sampled every 250 ms until it is back to where it was, but for the exchanges kept for the reports.
    const stats = toSink.stats();
    let after = memory();
    while (after.heapMb - before.heapMb > (2 * stats.keptSize) / 2 ** 20 + 16 && performance.now() - closedAt < 30_000) {
      await new Promise((r) => setTimeout(r, 250));
      after = memory();
    }
    const memoryBackMs = performance.now() - closedAt;
    memoryRows.push([
      what,
      `${fmt(during.heapMb - before.heapMb)} (${fmt(held.connections)} connections, ${fmt(held.inFlight)} in flight)`,
      fmt(letGoMs),
      `${fmt(after.heapMb - before.heapMb)} after ${fmt(memoryBackMs / 1000, 1)} s (${fmt(stats.connections)} connections, ${fmt(stats.inFlight)} in flight, ${fmt(stats.heldBytes)} bytes held, ${fmt(stats.kept)} exchanges kept for the reports in ${fmt(stats.keptSize / 1024)} KiB)`,
      `${fmt(during.rssMb)} → ${fmt(after.rssMb)}`,
      fmt(ms(loop), 1),
    ]);
  }
  // One answer of a 4 MiB JSON list of 57,000 pets, judged in one go: the bound --max-body sets.
  log('  a 4 MiB answer');
  const big = async () => {
    await (await fetch(`${toSink.url}/v1/big`, { headers: { authorization: 'Bearer demo-enterprise' } })).arrayBuffer();
    await toSink.live();
  };
  await big();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  await big();
  loop.disable();
  bigLoop = ms(loop);
} finally {
  await proxy.close();
  await toSink.close();
  await mock.stop();
  sink.stop();
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const report = [
  `Run on ${new Date().toISOString().slice(0, 10)}: ${machine}. Command: \`npm run bench:proxy${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`; ${seconds} s per scenario, the usual traffic (a list of 20, a read, a create, in turns) over ${connections} connections against the mock (250 pets), every client in a process of its own, the proxy alone in the measuring one. Stalls are the proxy's event-loop delay (\`monitorEventLoopDelay\`, 1 ms resolution): the longest time nothing else it had to do could run.`,
  '',
  markdownTable(['scenario', 'longest stall, ms', 'stall p99, ms', 'an idle process\'s longest stall meanwhile, ms', 'CPU per exchange forwarded and judged, ms', 'req/s', 'p50 ms', 'p99 ms', 'beside'], rows.map((r) => [r.scenario, fmt(r.loopMax, 1), fmt(r.loopP99, 1), fmt(r.noiseMax, 1), fmt(r.cpuPerExchange, 2), fmt(r.rps), fmt(r.p50, 1), fmt(r.p99, 1), r.extra])),
  '',
  markdownTable(['connections', 'JS heap while open, MiB more than before', 'closed, counted and judged within, ms', 'JS heap once let go, MiB more than before (what the proxy still holds)', 'RSS MiB, open → let go', 'longest stall while they opened and closed, ms'], memoryRows),
  '',
  `One answer of a 4 MiB JSON list (57,000 pets), judged in one go: the longest stall was ${fmt(bigLoop, 1)} ms (memory at start: ${fmt(started.heapMb)} MiB of JS heap).`,
  '',
].join('\n');
console.log(report);
if (args.write) {
  const path = projectPath(args.write);
  const existing = await readFile(path, 'utf8');
  const [open, close] = ['<!-- proxy stress results -->', '<!-- /proxy stress results -->'];
  if (!existing.includes(open) || !existing.includes(close)) throw new Error(`${args.write} has no ${open} … ${close} section to write into.`);
  await writeFile(path, `${existing.slice(0, existing.indexOf(open) + open.length)}\n\n${report}\n${existing.slice(existing.indexOf(close))}`);
  log(`Wrote ${path}`);
}
