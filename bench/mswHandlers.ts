import { http, type HttpHandler } from 'msw';
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
   * quarter-second slices alternating with the mock's handlers (each side gets `seconds` / 2), so
   * that both meet the same load on a busy machine, which goes first changing from one round to
   * the next (the one after a switch of handlers meets what the other left to collect). The mock's
   * ratio to it, per round (`pairs`), is what the mock adds to MSW as a user would otherwise write it.
   * `alike` is a third side in the same rounds: the same page from a handler that takes its requests
   * as the mock's handlers do (no path compiled, no cookie store read), so that the ratio to it
   * (`alikePairs`) is the mock's own work alone.
   */
  againstPlain(request: LoadRequest, options: { seconds: number; connections: number }): Promise<{ mock: LoadResult; plain: LoadResult; alike: LoadResult; pairs: number[]; alikePairs: number[] }>;
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
  const entry = (name: string) => pathToFileURL(fromSource ? projectPath('mock', 'adapters', `${name}.ts`) : projectPath('dist', 'mock', 'adapters', `${name}.js`)).href;
  const { createPetsHandlers } = (await import(entry('msw'))) as typeof import('../mock/adapters/msw.ts');
  const { MockHandler } = (await import(entry('mswHandlers'))) as typeof import('../mock/adapters/mswHandlers.ts');
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
      const fresh = (): Samples => ({ latencies: [], statuses: {}, errors: 0, elapsed: 0, cpuUs: 0 });
      const [viaMock, viaPlain, viaAlike] = [fresh(), fresh(), fresh()];
      const rate = (samples: Samples, before: { count: number; elapsed: number }) => (samples.latencies.length - before.count) / (samples.elapsed - before.elapsed);
      const mark = (samples: Samples) => ({ count: samples.latencies.length, elapsed: samples.elapsed });
      const through = async (into: Samples, serving: () => Promise<void>) => {
        await serving();
        const before = mark(into);
        try {
          await loops(request, { seconds: slice, connections }, into);
        } finally {
          server.resetHandlers(...handlers);
        }
        return rate(into, before);
      };
      // The page and headers as the mock answers this request now (creates change the page), from one handler.
      const servingPage = (handler: (path: string, answer: () => Response) => HttpHandler) => async () => {
        const answered = await fetch(`${mock.baseUrl}${request.path}`, { method: request.method, ...(request.headers ? { headers: request.headers } : {}) });
        const page = await answered.text();
        const headers = [...answered.headers];
        server.resetHandlers(handler(`${mock.baseUrl}${request.path.split('?')[0]}`, () => new Response(page, { status: answered.status, headers })));
      };
      const sides = [
        () => through(viaMock, async () => {}),
        () => through(viaPlain, servingPage((path, answer) => http.get(path, answer))),
        () => through(viaAlike, servingPage((path, answer) => new MockHandler('GET', path, answer, (url) => url.split('?')[0] === path))),
      ];
      const pairs: number[] = [];
      const alikePairs: number[] = [];
      for (let spent = 0, round = 0; spent < seconds; spent += 2 * slice, round++) {
        // Each side first, second and last in turn, the order reversed every other round, so
        // that each follows each other side as often as it precedes it.
        const rates: number[] = [];
        for (let i = 0; i < sides.length; i++) {
          const side = (Math.floor(round / 2) + (round % 2 === 0 ? i : sides.length - 1 - i)) % sides.length;
          rates[side] = await sides[side]!();
        }
        pairs.push(rates[0]! / rates[1]!);
        alikePairs.push(rates[0]! / rates[2]!);
      }
      return { mock: summary(viaMock), plain: summary(viaPlain), alike: summary(viaAlike), pairs, alikePairs };
    },
    async stop() {
      server.close();
      await mock.close();
    },
  };
}
