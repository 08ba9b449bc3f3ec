import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A 127.0.0.1 port free now: one the system gave and took back. Another process may take it before
 * it is bound, so a caller that cannot retry should listen on port 0 itself.
 */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}
