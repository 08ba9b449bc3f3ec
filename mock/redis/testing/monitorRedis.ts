// MONITOR on a raw socket, for the tests and the bench that count what a replica sends Redis.
// Not ioredis's monitor(): it enters monitoring mode a microtask after MONITOR's +OK, so a command
// line that arrives in the same TCP read as the +OK finds an empty command queue, and ioredis
// throws "Command queue state error" as an unhandled 'error', which ends the process.
import { connect, type Socket } from 'node:net';

/** One command Redis ran: its arguments, the command's name first, and who sent it ("lua" inside a script). */
export interface MonitoredCommand {
  args: string[];
  source: string;
}

export interface RedisMonitor {
  /**
   * Calls `listener` with every command Redis runs from now on (the first listener also gets those
   * Redis ran since it said OK to MONITOR); returns what stops it.
   */
  onCommand(listener: (command: MonitoredCommand) => void): () => void;
  /**
   * Resolves once MONITOR has shown every command `client` sent so far: a marker it echoes comes
   * after them (Redis runs one connection's commands in order).
   */
  caughtUp(client: { echo(text: string): Promise<unknown> }): Promise<void>;
  close(): void;
}

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, a: 7, b: 8, '"': 34, '\\': 92 };

/**
 * Reads one MONITOR line, `1339518083.107412 [0 127.0.0.1:60866] "keys" "*"` (the leading `+` and
 * the CRLF gone). Redis quotes each argument as sdscatrepr does: `\"`, `\\`, `\n`, `\r`, `\t`, `\a`,
 * `\b`, and `\xHH` for every other byte that is not printable, so UTF-8 comes as its bytes.
 */
export function parseMonitorLine(line: string): MonitoredCommand | undefined {
  const head = /^\d+\.\d+ \[\d+ ([^\]]*)\] /.exec(line);
  if (!head) return undefined;
  const args: string[] = [];
  let i = head[0].length;
  while (i < line.length) {
    if (line[i] === ' ') {
      i++;
      continue;
    }
    if (line[i] !== '"') return undefined;
    const bytes: number[] = [];
    i++;
    while (i < line.length && line[i] !== '"') {
      if (line[i] !== '\\') {
        bytes.push(line.charCodeAt(i++));
        continue;
      }
      const next = line[i + 1] ?? '';
      if (next === 'x') {
        bytes.push(Number.parseInt(line.slice(i + 2, i + 4), 16));
        i += 4;
      } else {
        bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
        i += 2;
      }
    }
    if (line[i] !== '"') return undefined;
    i++;
    args.push(Buffer.from(bytes).toString('utf8'));
  }
  return { args, source: head[1]! };
}

/** Opens a connection of its own to the Redis at `url` (redis://host:port) and sends MONITOR; resolves once Redis said OK. */
export async function monitorRedis(url: string): Promise<RedisMonitor> {
  const { hostname, port, protocol } = new URL(url);
  if (protocol !== 'redis:') throw new Error(`Failed to monitor Redis: "${url}" is not a redis:// URL. Monitor a plain-text Redis.`);
  // An IPv6 host comes bracketed in a URL, and bare to connect().
  const socket: Socket = connect({ host: hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(port || 6379) });
  socket.setEncoding('latin1');
  const listeners = new Set<(command: MonitoredCommand) => void>();
  // What Redis ran between its OK and the first listener: MONITOR's lines may share a read with it.
  let early: MonitoredCommand[] | undefined = [];
  let pending = '';
  let ready: (() => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  socket.on('error', (error) => failed?.(error));
  socket.on('close', () => failed?.(new Error(`Failed to monitor Redis at ${url}: the connection closed before Redis said OK to MONITOR.`)));
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let end: number;
    while ((end = pending.indexOf('\r\n')) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      if (ready) {
        if (line === '+OK') ready();
        else failed?.(new Error(`Failed to monitor Redis at ${url}: it answered MONITOR with ${JSON.stringify(line)}.`));
        ready = failed = undefined;
        continue;
      }
      const command = line.startsWith('+') ? parseMonitorLine(line.slice(1)) : undefined;
      if (!command) continue;
      if (early) early.push(command);
      else for (const listener of listeners) listener(command);
    }
  });
  socket.write('MONITOR\r\n');
  await started;
  let markers = 0;
  const onCommand: RedisMonitor['onCommand'] = (listener) => {
    listeners.add(listener);
    const kept = early ?? [];
    early = undefined;
    for (const command of kept) listener(command);
    return () => listeners.delete(listener);
  };
  return {
    onCommand,
    async caughtUp(client) {
      const marker = `monitor-marker-${process.pid}-${++markers}`;
      let stop = () => {};
      const seen = new Promise<void>((resolve) => (stop = onCommand(({ args }) => args[1] === marker && resolve())));
      await client.echo(marker);
      await seen;
      stop();
    },
    close() {
      listeners.clear();
      socket.destroy();
    },
  };
}
