#!/usr/bin/env node
// `npm run bench`: the mock against its node:http ceiling and Prism, in turns, in one run.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { projectPath } from '../common/projectRoot.ts';
import { load, type LoadRequest, type LoadResult } from './load.ts';
import { ceilingScenario, scenarios, type Scenario } from './scenarios.ts';
import { startCeiling, startMock, startPrism, startReplay, type RecordedAnswer, type RunningServer } from './servers.ts';
import { startMswHandlers } from './mswHandlers.ts';
import { measureActionSetup } from './actionSetup.ts';
import { startProxy } from '../conformance/proxy/startProxy.ts';
import { latencyP50 } from './proxyLatency.ts';
import { benchRedisReplicas, canBenchRedis, replicasName } from './redisReplicas.ts';
import { markdownTable, median } from './table.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    'startup-runs': { type: 'string', default: '5' },
    'scale-pets': { type: 'string', default: '1000000' },
    'no-scale': { type: 'boolean', default: false },
    'no-prism': { type: 'boolean', default: false },
    'no-redis': { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
    write: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(`Usage: npm run bench -- [options]
  --seconds N        load per scenario and round (default 5)
  --connections N    concurrent connections (default 50)
  --rounds N         rounds of every server and scenario, in turns; medians are reported (default 3)
  --startup-runs N   starts of each server for the start-up time (default 5)
  --scale-pets N     pets for the scale comparison against 1,000 (default 1000000)
  --no-scale         skip the scale comparison
  --no-prism         skip Prism
  --no-redis         skip two mocks on one Redis (skipped anyway without /usr/bin/redis-server)
  --smoke            a tiny run that only checks the harness works
  --source           run the mock and the suite from their TypeScript source (no build needed; slower start-up)
  --write FILE       also write the results as Markdown to FILE (docs/performance.md)`);
  process.exit(0);
}
const smoke = args.smoke;
const opts = { seconds: smoke ? 0.3 : Number(args.seconds), connections: Number(args.connections) };
const rounds = smoke ? 1 : Number(args.rounds);
const startupRuns = smoke ? 1 : Number(args['startup-runs']);
const withPrism = !args['no-prism'];
const withScale = !args['no-scale'] && !smoke;
const scalePets = Number(args['scale-pets']);

type Row = { server: string; scenario: string; results: LoadResult[]; peakMb: number; note?: string };
const rows = new Map<string, Row>();
function record(server: RunningServer, scenario: Scenario, result: LoadResult, peakMb: number, note?: string) {
  const id = `${server.name}\0${scenario.id}`;
  const row = rows.get(id) ?? { server: server.name, scenario: scenario.id, results: [], peakMb: 0, ...(note ? { note } : {}) };
  row.results.push(result);
  row.peakMb = Math.max(row.peakMb, peakMb);
  rows.set(id, row);
}
const rps = (server: string, scenario: string) => median(rows.get(`${server}\0${scenario}`)?.results.map((r) => r.rps) ?? []);
const log = (line: string) => console.error(line);

async function drive(server: RunningServer, scenario: Scenario, note?: string) {
  const result = await load(server.base, scenario.request, opts);
  record(server, scenario, result, (await server.memory()).peakMb, note);
  log(`  ${server.name.padEnd(22)} ${scenario.id.padEnd(34)} ${result.rps.toFixed(0).padStart(8)} req/s`);
}

/**
 * Each scenario's answer from the mock, as the replay server gives it back: the status, the body,
 * and the headers but Date and those of the connection, which Node's server writes itself.
 */
async function recordAnswers(server: RunningServer, list: Scenario[]): Promise<Record<string, RecordedAnswer>> {
  const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  const answers: Record<string, RecordedAnswer> = {};
  for (const request of list.flatMap((s) => (Array.isArray(s.request) ? s.request : [s.request]))) {
    const response = await fetch(`${server.base}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!own.has(name)) headers[name] = value;
    });
    answers[`${request.method} ${new URL(server.base).pathname}${request.path}`] = { status: response.status, headers, body: await response.text() };
  }
  return answers;
}

/** A load on a server, with the CPU time the server's process spent per answer (every thread). */
async function measured(server: RunningServer, request: Scenario['request'], options: typeof opts) {
  const before = await server.cpuMs();
  const result = await load(server.base, request, options);
  const answers = Object.values(result.statuses).reduce((a, b) => a + b, 0);
  return { rps: result.rps, cpuUsPerRequest: ((await server.cpuMs()) - before) * 1000 / Math.max(answers, 1) };
}
const paired: { rps: number; cpu: number; ceiling: { rps: number; cpuUsPerRequest: number }; mock: { rps: number; cpuUsPerRequest: number } }[] = [];

// Throughput, in turns: every round drives each server with each scenario once.
log(`Throughput: ${rounds} round(s) of ${opts.seconds} s per scenario, ${opts.connections} connections`);
const ceiling = await startCeiling();
const mock = await startMock([], 'mock', args.source);
const prism = withPrism ? await startPrism() : undefined;
const replay = await startReplay(await recordAnswers(mock, scenarios));
try {
  // Warm up: a second of each request first, so no server is measured while its JIT is cold.
  log('warm-up');
  const warm = { ...opts, seconds: smoke ? 0.2 : 1 };
  await load(ceiling.base, ceilingScenario.request, warm);
  for (const scenario of scenarios) {
    await load(replay.base, scenario.request, warm);
    await load(mock.base, scenario.request, warm);
    if (prism) await load(prism.base, scenario.request, warm);
  }
  for (let round = 1; round <= rounds; round++) {
    log(`round ${round}`);
    await drive(ceiling, ceilingScenario);
    for (const scenario of scenarios) {
      await drive(replay, scenario, 'the mock\'s answer replayed: its floor of cost in node:http');
      await drive(mock, scenario);
      if (prism) await drive(prism, scenario, scenario.note);
    }
  }
  // The list target, paired: the ceiling and the mock in alternating slices, each pair within a
  // couple of seconds, so both meet the same load from the rest of a shared machine; the
  // median of the pairs' ratios is the target's figure.
  log('mock against the ceiling, in alternating slices');
  const slice = { ...opts, seconds: smoke ? 0.2 : 1 };
  // The mock as `npm start` starts it, with its fixtures, not with the pets the create scenario
  // left (the scale table measures a million); a slice first, for the collection of those.
  const reset = await fetch(`${mock.base.replace(/\/v1$/, '')}/__mock/reset`, { method: 'POST' });
  if (!reset.ok) throw new Error(`Could not reset the mock before the paired slices: ${reset.status} ${await reset.text()}`);
  await measured(mock, ceilingScenario.request, slice);
  for (let pair = 0; pair < (smoke ? 1 : Math.max(5, rounds * 3)); pair++) {
    const c = await measured(ceiling, ceilingScenario.request, slice);
    const m = await measured(mock, ceilingScenario.request, slice);
    paired.push({ rps: m.rps / c.rps, cpu: c.cpuUsPerRequest / m.cpuUsPerRequest, ceiling: c, mock: m });
    log(`  pair ${pair + 1}: ceiling ${c.rps.toFixed(0)} req/s (${c.cpuUsPerRequest.toFixed(1)} µs CPU each), mock ${m.rps.toFixed(0)} req/s (${m.cpuUsPerRequest.toFixed(1)} µs): ${(m.rps / c.rps).toFixed(2)}`);
  }
} finally {
  await Promise.all([ceiling.stop(), mock.stop(), prism?.stop(), replay.stop()]);
}

// Two mock processes on one redis-server, the load split between them: what --redis costs
// against the in-memory mock measured above, and Redis commands per request.
const redisCommands = new Map<string, number[]>();
const redisRoundTrips = new Map<string, number>();
if (!args['no-redis'] && canBenchRedis()) {
  log(`${replicasName}, load split between them`);
  const measured = await benchRedisReplicas(scenarios, { ...opts, rounds, fromSource: args.source }, (server, scenario, result, peakMb, note) => {
    record(server, scenario, result, peakMb, note);
    log(`  ${server.name.padEnd(22)} ${scenario.id.padEnd(34)} ${result.rps.toFixed(0).padStart(8)} req/s`);
  });
  for (const [id, samples] of measured.commands) redisCommands.set(id, samples);
  for (const [id, trips] of measured.roundTrips) redisRoundTrips.set(id, trips);
} else {
  log(`${replicasName}: skipped (${args['no-redis'] ? '--no-redis' : 'no redis-server on this machine'})`);
}

// In-process: the same scenarios through the MSW handlers, with fetch, as a component test sends
// them. Run alone, after the servers have stopped: while MSW listens it intercepts this process's fetch.
log('MSW handlers, in-process');
const plainMswName = 'plain MSW handler (in-process fetch)';
const alikeMswName = 'plain handler matched as the host\'s';
const slicedMswName = 'MSW handlers, sliced with the plain one';
// The MSW host against a plain handler: the ratio of each round of slices (the order turning).
const mswPairs: number[] = [];
const mswAlikePairs: number[] = [];
const msw = await startMswHandlers(args.source);
try {
  for (const scenario of scenarios) await msw.load(scenario.request, { ...opts, seconds: smoke ? 0.2 : 1 });
  await msw.againstPlain(ceilingScenario.request as LoadRequest, { ...opts, seconds: smoke ? 0.2 : 1 });
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const result = await msw.load(scenario.request, opts);
      record(msw, scenario, result, (await msw.memory()).peakMb, 'no socket: MSW intercepts fetch in the process');
      log(`  ${msw.name.padEnd(22)} ${scenario.id.padEnd(34)} ${result.rps.toFixed(0).padStart(8)} req/s`);
    }
    // MSW alone (one plain handler answering the same page) in quarter-second slices alternating
    // with the mock's handlers: the ratio of the two is what the mock adds to MSW.
    const { mock: sliced, plain: alone, alike, pairs, alikePairs } = await msw.againstPlain(ceilingScenario.request as LoadRequest, opts);
    mswPairs.push(...pairs);
    mswAlikePairs.push(...alikePairs);
    record({ ...msw, name: slicedMswName }, ceilingScenario, sliced, (await msw.memory()).peakMb, 'in slices alternating with the plain handler below');
    record({ ...msw, name: plainMswName }, ceilingScenario, alone, (await msw.memory()).peakMb, 'MSW alone: one handler answering the page and headers the mock gave');
    record({ ...msw, name: alikeMswName }, ceilingScenario, alike, (await msw.memory()).peakMb, 'the same page, from a handler taking its requests as the host\'s do (no path compiled, no cookie store read)');
    log(`  ${slicedMswName.padEnd(22)} ${ceilingScenario.id.padEnd(34)} ${sliced.rps.toFixed(0).padStart(8)} req/s`);
    log(`  ${plainMswName.padEnd(22)} ${ceilingScenario.id.padEnd(34)} ${alone.rps.toFixed(0).padStart(8)} req/s`);
    log(`  ${alikeMswName.padEnd(22)} ${ceilingScenario.id.padEnd(34)} ${alike.rps.toFixed(0).padStart(8)} req/s`);
  }
} finally {
  await msw.stop();
}

// Start-up: from spawning the process to its first answered request, alternating the two.
log('Start-up');
const startups: Record<string, number[]> = { mock: [], prism: [] };
for (let run = 0; run < startupRuns; run++) {
  const m = await startMock([], 'mock', args.source);
  startups.mock!.push(m.startupMs);
  await m.stop();
  if (withPrism) {
    const p = await startPrism();
    startups.prism!.push(p.startupMs);
    await p.stop();
  }
}

// Scale: the same reads with a thousand pets and with a million.
const scale: { pets: number; startupMs: number; rssMb: number; results: Record<string, number> }[] = [];
if (withScale) {
  const key = { authorization: 'Bearer demo-enterprise' };
  const reads: Scenario[] = [
    // A create before every list read: the page cache is dropped each time, so this measures the
    // list itself (an O(n) list would show here), not the cache.
    {
      id: 'POST /pets + GET /pets?limit=20&status=sold',
      request: [
        { method: 'POST', path: '/pets', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'sold' }) },
        { method: 'GET', path: '/pets?limit=20&status=sold', headers: key },
      ],
      note: '',
    },
    { id: 'GET /pets/{id}', request: { method: 'GET', path: '/pets/500', headers: key }, note: '' },
    scenarios[3]!,
  ];
  for (const pets of [1000, scalePets]) {
    log(`Scale: ${pets} pets`);
    const server = await startMock(['--pets', String(pets)], `mock, ${pets} pets`, args.source);
    try {
      const samples: Record<string, number[]> = {};
      const { rssMb } = await server.memory();
      for (let round = 0; round < rounds; round++) {
        for (const read of reads) (samples[read.id] ??= []).push((await load(server.base, read.request, opts)).rps);
      }
      scale.push({ pets, startupMs: server.startupMs, rssMb, results: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) });
    } finally {
      await server.stop();
    }
  }
}

// The conformance suite's default run against the local mock.
log('Conformance default run');
const conformanceSeconds = await (async () => {
  const server = await startMock([], 'mock', args.source);
  try {
    const started = performance.now();
    // The command as users run it: the build (`npm run conformance`), or the source with --source.
    const command = args.source ? ['--import', 'tsx', 'conformance/bin.ts'] : ['dist/conformance/bin.js'];
    const child = spawn(process.execPath, [...command, '--base-url', server.base, '--report-dir', '.bench-reports'], { cwd: projectPath(), stdio: 'ignore', env: { ...process.env, PETS_API_KEY: 'demo-pro' } });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`the conformance suite exited ${code} against the mock`);
    return (performance.now() - started) / 1000;
  } finally {
    await server.stop();
  }
})();

// The validating proxy's cost: the mock's list answer, directly and through the proxy, in turns.
log('Validating proxy');
const proxyCost = await (async () => {
  const server = await startMock([], 'mock', args.source);
  const proxy = await startProxy({ target: server.base, maxRecords: 1_000 });
  try {
    const list = ceilingScenario.request as LoadRequest;
    const path = `${new URL(server.base).pathname}${list.path}`;
    return await latencyP50({ direct: `${new URL(server.base).origin}${path}`, through: `${proxy.url}${path}` }, list.headers ?? {}, smoke ? 50 : 2_000);
  } finally {
    await proxy.close();
    await server.stop();
  }
})();

// The GitHub Action's setup: its run step's start to the suite's first request.
log('GitHub Action setup');
const actionSetup = await measureActionSetup(startupRuns);

// Report.
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');
const throughput = markdownTable(
  ['server', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'peak RSS MiB', 'answers', 'payload'],
  [...rows.values()].map((row) => [
    row.server,
    row.scenario,
    fmt(median(row.results.map((r) => r.rps))),
    fmt(median(row.results.map((r) => r.p50)), 1),
    fmt(median(row.results.map((r) => r.p99)), 1),
    fmt(row.peakMb),
    Object.entries(row.results.reduce<Record<string, number>>((sum, r) => {
      for (const [k, v] of Object.entries(r.statuses)) sum[k] = (sum[k] ?? 0) + v;
      return sum;
    }, {})).map(([k, v]) => `${k} ${fmt(v)}`).join(', '),
    row.note ?? '',
  ]),
);

const targets: [string, number, string, boolean | undefined][] = [];
const ceilingRatio = median(paired.map((p) => p.rps));
const cpuRatio = median(paired.map((p) => p.cpu));
targets.push([`mock ${ceilingScenario.id} / ceiling, in alternating 1 s slices (median of ${paired.length} pairs)`, ceilingRatio, '>= 0.65', ceilingRatio >= 0.65]);
targets.push([`for the record: CPU per answer, ceiling / mock (same pairs; ${fmt(median(paired.map((p) => p.ceiling.cpuUsPerRequest)), 1)} µs and ${fmt(median(paired.map((p) => p.mock.cpuUsPerRequest)), 1)} µs)`, cpuRatio, '', undefined]);
const mswRatio = median(mswPairs);
targets.push([`MSW host ${ceilingScenario.id} / plain MSW handler, same page, in alternating quarter-second slices (median of ${mswPairs.length} pairs)`, mswRatio, '>= 0.9', mswRatio >= 0.9]);
const mswCpu = (name: string) => median(rows.get(`${name}\0${ceilingScenario.id}`)?.results.map((r) => r.cpuUsPerRequest ?? NaN) ?? []);
targets.push([`for the record: CPU per answer, plain MSW handler / MSW host (same slices; ${fmt(mswCpu(plainMswName), 1)} µs and ${fmt(mswCpu(slicedMswName), 1)} µs, the fetch's own included)`, mswCpu(plainMswName) / mswCpu(slicedMswName), '', undefined]);
// The host's handlers take their requests without MSW's per-request path and cookie work, which
// the plain handler above pays: against one that takes them alike, the ratio is the mock's own work.
const mswAlikeRatio = median(mswAlikePairs);
targets.push([`for the record: MSW host / a plain handler taking its requests as the host's do, same slices (median of ${mswAlikePairs.length} rounds; ${fmt(mswCpu(alikeMswName), 1)} µs CPU per answer)`, mswAlikeRatio, '', undefined]);
if (prism) {
  for (const scenario of scenarios) {
    const ratio = rps(mock.name, scenario.id) / rps(prism.name, scenario.id);
    targets.push([`mock ${scenario.id} / Prism`, ratio, '>= 15', ratio >= 15]);
    // The most a node:http server answering the mock's bytes reaches against Prism here: a goal
    // above it is out of any node:http server's reach on this machine, however little it does.
    targets.push([`for the record: ${scenario.id}, node:http replaying the mock's answer / Prism`, rps(replay.name, scenario.id) / rps(prism.name, scenario.id), '', undefined]);
  }
  const startupRatio = median(startups.mock!) / median(startups.prism!);
  targets.push(['mock start-up / Prism start-up', startupRatio, '<= 0.3', startupRatio <= 0.3]);
}
if (scale.length === 2) {
  const [small, big] = scale as [typeof scale[0], typeof scale[0]];
  for (const id of Object.keys(small.results)) {
    // Cost is time per request: the inverse of throughput.
    const cost = small.results[id]! / big.results[id]!;
    targets.push([`cost of ${id} with ${fmt(big.pets)} pets / with ${fmt(small.pets)}`, cost, '<= 1.5', cost <= 1.5]);
  }
}
targets.push(['conformance default run against the mock, seconds', conformanceSeconds, '< 10', conformanceSeconds < 10]);
const proxyAddedMs = proxyCost.through - proxyCost.direct;
targets.push([`validating proxy: added p50 of ${ceilingScenario.id}, ms (${fmt(proxyCost.direct, 2)} direct, ${fmt(proxyCost.through, 2)} through)`, proxyAddedMs, '< 2', proxyAddedMs < 2]);
const actionSetupMs = median(actionSetup.toFirstRequestMs);
targets.push(['GitHub Action: run step start to first request, ms', actionSetupMs, '< 5000', actionSetupMs < 5000]);

const replicasTable = redisCommands.size > 0
  ? markdownTable(['scenario', 'mock in memory, req/s', `${replicasName}, req/s (both together)`, 'ratio', 'Redis round trips per request (the request log\'s included)', 'Redis commands per request (inside scripts included)'], scenarios.map((scenario) => [
    scenario.id,
    fmt(rps(mock.name, scenario.id)),
    fmt(rps(replicasName, scenario.id)),
    fmt(rps(replicasName, scenario.id) / rps(mock.name, scenario.id), 2),
    fmt(redisRoundTrips.get(scenario.id) ?? NaN, 1),
    fmt(median(redisCommands.get(scenario.id) ?? []), 1),
  ]))
  : '';

const startupTable = markdownTable(['server', 'start-up to first answer, ms (median)', 'runs'], [
  ['mock (`node dist/mock/bin.js`, default fixtures)', fmt(median(startups.mock!)), startups.mock!.map((v) => fmt(v)).join(', ')],
  ...(withPrism ? [['prism 5.12 (`prism mock spec/openapi.yaml`)', fmt(median(startups.prism!)), startups.prism!.map((v) => fmt(v)).join(', ')]] : []),
  ['GitHub Action: its run step to the first request (`node action/conformance.mjs`, a checkout without node_modules)', fmt(median(actionSetup.toFirstRequestMs)), actionSetup.toFirstRequestMs.map((v) => fmt(v)).join(', ')],
  ['baseline: Node itself (`node -e \'\'`)', fmt(median(actionSetup.nodeStartMs)), actionSetup.nodeStartMs.map((v) => fmt(v)).join(', ')],
]);
const scaleTable = scale.length > 0
  ? markdownTable(['pets', 'start-up ms', 'RSS MiB after start', ...Object.keys(scale[0]!.results).map((k) => `${k} req/s`)], scale.map((s) => [fmt(s.pets), fmt(s.startupMs), fmt(s.rssMb), ...Object.values(s.results).map((v) => fmt(v))]))
  : '';
const memoryPerPet = scale.length === 2 ? ((scale[1]!.rssMb - scale[0]!.rssMb) * 1024 * 1024) / (scale[1]!.pets - scale[0]!.pets) : NaN;
const targetTable = markdownTable(['target', 'measured', 'goal', 'met'], targets.map(([name, value, goal, met]) => [name, fmt(value, 2), goal, met === undefined ? '' : met ? 'yes' : 'NO']));

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const report = [
  `Run on ${new Date().toISOString().slice(0, 10)}: ${machine}.`,
  `Command: \`npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`; ${rounds} round(s) in turns, ${opts.seconds} s per scenario, ${opts.connections} connections, medians. The load generator (autocannon) runs on the same two cores as the server.`,
  '',
  '### Throughput',
  '',
  throughput,
  '',
  '### Targets',
  '',
  targetTable,
  '',
  ...(replicasTable ? ['### Replicas on Redis', '', replicasTable, ''] : []),
  '### Start-up',
  '',
  startupTable,
  ...(scaleTable ? ['', '### Scale', '', scaleTable, '', `Memory per pet: about ${fmt(memoryPerPet)} bytes. Time to start with ${fmt(scalePets)} generated pets: ${fmt(scale[1]!.startupMs / 1000, 1)} s.`] : []),
  '',
].join('\n');

console.log(report);
if (args.write) {
  const path = projectPath(args.write);
  const existing = await readFile(path, 'utf8').catch(() => '');
  const marker = '<!-- bench results -->';
  const head = existing.includes(marker) ? existing.slice(0, existing.indexOf(marker)) : existing;
  await writeFile(path, `${head}${marker}\n\n${report}`);
  log(`Wrote ${path}`);
}
