// The validating proxy's cost to a client: one request at a time over a kept-alive connection, the
// same request directly and through the proxy in turns, each timed to its last byte. autocannon's
// histogram counts whole milliseconds, too coarse for a cost that must stay under 2 ms.
import { Agent, request } from 'node:http';
import { median } from './table.ts';

export async function latencyP50(urls: { direct: string; through: string }, headers: Record<string, string>, requests: number): Promise<{ direct: number; through: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples = { direct: [] as number[], through: [] as number[] };
  try {
    for (let i = 0; i < requests; i++) {
      for (const which of ['direct', 'through'] as const) samples[which].push(await timed(urls[which], headers, agent));
    }
  } finally {
    agent.destroy();
  }
  return { direct: median(samples.direct), through: median(samples.through) };
}

function timed(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    })
      .on('error', reject)
      .end();
  });
}
