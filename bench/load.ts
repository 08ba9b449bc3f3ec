import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Relative to the server's base. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Answers by status class, e.g. { '2xx': 1000, '4xx': 12 }. */
  statuses: Record<string, number>;
  errors: number;
  /** CPU time the process spent per answer (in-process loads only: a server's is read from /proc by the harness). */
  cpuUsPerRequest?: number;
}

/**
 * Drives a server with autocannon for `seconds`, over `connections` connections: one request
 * repeated, or a sequence each connection cycles through.
 */
export async function load(base: string, request: LoadRequest | LoadRequest[], { seconds, connections }: { seconds: number; connections: number }): Promise<LoadResult> {
  const sequence = Array.isArray(request) ? request : [request];
  const result = await autocannon({
    url: `${base}${sequence[0]!.path}`,
    requests: sequence.map((r) => ({ method: r.method, path: `${new URL(base).pathname.replace(/\/$/, '')}${r.path}`, headers: r.headers, body: r.body })),
    connections,
    duration: seconds,
  });
  const statuses: Record<string, number> = {};
  for (const cls of ['1', '2', '3', '4', '5'] as const) {
    const count = (result as unknown as Record<string, number>)[`${cls}xx`] ?? 0;
    if (count > 0) statuses[`${cls}xx`] = count;
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, statuses, errors: result.errors + result.timeouts };
}
