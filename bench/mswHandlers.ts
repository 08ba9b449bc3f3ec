import { http } from 'msw';
import { setupServer } from 'msw/node';
import { createPetsHandlers } from '../mock/adapters/msw.ts';
import type { LoadRequest, LoadResult } from './load.ts';
import type { RunningServer } from './servers.ts';

export interface InProcessTarget extends RunningServer {
  /** Sends the requests with fetch through the MSW handlers, from `connections` concurrent loops. */
  load(request: LoadRequest | LoadRequest[], options: { seconds: number; connections: number }): Promise<LoadResult>;
}

export interface MswTargets extends InProcessTarget {
  /**
   * What MSW itself costs, for the same list request: one plain handler of its own, `GET
   * <base>/pets`, answering the page and headers the mock gave that request just before (taken
   * again before each run, since creates change the page), measured in the same loops while it
   * stands in for the mock's handlers. The mock's ratio to it is what the mock adds to MSW.
   */
  plainList(request: LoadRequest, options: { seconds: number; connections: number }): Promise<LoadResult>;
}

/**
 * The mock as a component test meets it: MSW handlers in this process, called with fetch (no
 * socket, no port). Measured like the servers, with the same scenarios, so the table sets
 * in-process requests per second beside the HTTP mock's.
 */
export async function startMswHandlers(): Promise<MswTargets> {
  const started = performance.now();
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
  const loops = async (request: LoadRequest | LoadRequest[], { seconds, connections }: { seconds: number; connections: number }): Promise<LoadResult> => {
    const sequence = Array.isArray(request) ? request : [request];
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let errors = 0;
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
          errors++;
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
    await Promise.all(Array.from({ length: connections }, loop));
    const elapsed = (performance.now() - begun) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), statuses, errors };
  };
  return {
    name: 'MSW handlers (in-process fetch)',
    base: mock.baseUrl,
    pid: process.pid,
    startupMs,
    memory: async () => ({ rssMb: rssMb(), peakMb }),
    load: loops,
    async plainList(request, options) {
      // The page and headers as the mock answers this request now.
      const answered = await fetch(`${mock.baseUrl}${request.path}`, { method: request.method, ...(request.headers ? { headers: request.headers } : {}) });
      const page = await answered.text();
      const headers = [...answered.headers];
      const plain = http.get(`${mock.baseUrl}${request.path.split('?')[0]}`, () => new Response(page, { status: answered.status, headers }));
      server.resetHandlers(plain);
      try {
        return await loops(request, options);
      } finally {
        server.resetHandlers(...handlers);
      }
    },
    async stop() {
      server.close();
      await mock.close();
    },
  };
}
