import { http } from 'msw';
import { setupServer } from 'msw/node';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../common/projectRoot.ts';
import type { LoadRequest, LoadResult } from './load.ts';
import type { RunningServer } from './servers.ts';

export interface InProcessTarget extends RunningServer {
  /** Sends the requests with fetch through the MSW handlers, from `connections` concurrent loops. */
  load(request: LoadRequest | LoadRequest[], options: { seconds: number; connections: number }): Promise<LoadResult>;
}

export interface MswTargets extends InProcessTarget {
  /**
   * What MSW itself costs, for the same list request: one plain handler of its own, `GET
   * <base>/pets`, answering the page and headers the mock gave that request just before, in
   * quarter-second slices alternating with the mock's handlers over `seconds` (each gets half),
   * so that both meet the same load on a busy machine, which goes first changing from one pair to
   * the next (the one after a switch of handlers meets what the other left to collect). The mock's
   * ratio to it, per pair (`pairs`), is what the mock adds to MSW.
   */
  againstPlain(request: LoadRequest, options: { seconds: number; connections: number }): Promise<{ mock: LoadResult; plain: LoadResult; pairs: number[] }>;
}

/**
 * The mock as a component test meets it: MSW handlers in this process, called with fetch (no
 * socket, no port). Measured like the servers, with the same scenarios, so the table sets
 * in-process requests per second beside the HTTP mock's.
 */
export async function startMswHandlers(fromSource = false): Promise<MswTargets> {
  const started = performance.now();
  // The package's build, as users import it and as the servers above run it; the TypeScript source
  // through tsx only with --source. tsx's output names every function it creates, a call per
  // closure made per request, which the build does not have.
  const entry = fromSource ? projectPath('mock', 'adapters', 'msw.ts') : projectPath('dist', 'mock', 'adapters', 'msw.js');
  const { createPetsHandlers } = (await import(pathToFileURL(entry).href)) as typeof import('../mock/adapters/msw.ts');
  const { handlers, mock } = await createPetsHandlers();
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'bypass' });
  const startupMs = performance.now() - started;
  let peakMb = 0;
  const rssMb = () => {
    const rss = process.memoryUsage.rss() / 2 ** 20;
    peakMb = Math.max(peakMb, rss);
    return rss;
  };
  type Samples = { latencies: number[]; statuses: Record<string, number>; errors: number; elapsed: number; cpuUs: number };
  const summary = ({ latencies, statuses, errors, elapsed, cpuUs }: Samples): LoadResult => {
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), statuses, errors, cpuUsPerRequest: cpuUs / Math.max(latencies.length, 1) };
  };
  const loops = async (request: LoadRequest | LoadRequest[], { seconds, connections }: { seconds: number; connections: number }, into: Samples = { latencies: [], statuses: {}, errors: 0, elapsed: 0, cpuUs: 0 }): Promise<Samples> => {
    const sequence = Array.isArray(request) ? request : [request];
    const { latencies, statuses } = into;
    const deadline = performance.now() + seconds * 1000;
    const loop = async () => {
      for (let i = 0; performance.now() < deadline; i++) {
        const { method, path, headers, body } = sequence[i % sequence.length]!;
        const sent = performance.now();
        try {
          const res = await fetch(`${mock.baseUrl}${path}`, { method, ...(headers ? { headers } : {}), ...(body ? { body } : {}) });
          await res.arrayBuffer();
          const cls = `${String(res.status)[0]}xx`;
          statuses[cls] = (statuses[cls] ?? 0) + 1;
          latencies.push(performance.now() - sent);
        } catch {
          into.errors++;
        }
        if (i % 64 === 0) {
          rssMb();
          // As a test does between its steps: let the event loop turn. Promises that only ever
          // chain more promises never end V8's job, and what fetch's bodies hold weakly (their
          // FinalizationRegistry) is kept until it ends: 50 loops of in-process fetches that never
          // yield held about 8 KiB a request, all given back at the first turn.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    };
    const begun = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(Array.from({ length: connections }, loop));
    const spent = process.cpuUsage(cpu);
    into.cpuUs += spent.user + spent.system;
    into.elapsed += (performance.now() - begun) / 1000;
    return into;
  };
  return {
    name: 'MSW handlers (in-process fetch)',
    base: mock.baseUrl,
    pid: process.pid,
    startupMs,
    memory: async () => ({ rssMb: rssMb(), peakMb }),
    cpuMs: async () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; },
    load: async (request, options) => summary(await loops(request, options)),
    async againstPlain(request, { seconds, connections }) {
      // The mock as a test starts it, with its fixtures: not with the pets the create scenario
      // left, whose marking the garbage collector would bill to whichever side allocates more.
      await mock.reset();
      await loops(request, { seconds: Math.min(0.25, seconds / 2), connections });
      const slice = Math.min(0.25, seconds / 2);
      const viaMock: Samples = { latencies: [], statuses: {}, errors: 0, elapsed: 0, cpuUs: 0 };
      const viaPlain: Samples = { latencies: [], statuses: {}, errors: 0, elapsed: 0, cpuUs: 0 };
      const pairs: number[] = [];
      const rate = (samples: Samples, before: { count: number; elapsed: number }) => (samples.latencies.length - before.count) / (samples.elapsed - before.elapsed);
      const mark = (samples: Samples) => ({ count: samples.latencies.length, elapsed: samples.elapsed });
      const throughMock = async () => {
        const before = mark(viaMock);
        await loops(request, { seconds: slice, connections }, viaMock);
        return rate(viaMock, before);
      };
      const throughPlain = async () => {
        // The page and headers as the mock answers this request now (creates change the page).
        const answered = await fetch(`${mock.baseUrl}${request.path}`, { method: request.method, ...(request.headers ? { headers: request.headers } : {}) });
        const page = await answered.text();
        const headers = [...answered.headers];
        server.resetHandlers(http.get(`${mock.baseUrl}${request.path.split('?')[0]}`, () => new Response(page, { status: answered.status, headers })));
        const before = mark(viaPlain);
        try {
          await loops(request, { seconds: slice, connections }, viaPlain);
        } finally {
          server.resetHandlers(...handlers);
        }
        return rate(viaPlain, before);
      };
      for (let spent = 0, pair = 0; spent < seconds; spent += 2 * slice, pair++) {
        let viaMockRate: number;
        let viaPlainRate: number;
        if (pair % 2 === 0) {
          viaMockRate = await throughMock();
          viaPlainRate = await throughPlain();
        } else {
          viaPlainRate = await throughPlain();
          viaMockRate = await throughMock();
        }
        pairs.push(viaMockRate / viaPlainRate);
      }
      return { mock: summary(viaMock), plain: summary(viaPlain), pairs };
    },
    async stop() {
      server.close();
      await mock.close();
    },
  };
}
