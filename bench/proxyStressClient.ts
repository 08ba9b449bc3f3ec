// The clients of `npm run bench:proxy`, each in a process of its own so that the proxy's event
// loop, measured in the harness's process, runs the proxy alone. One JSON line out per result.
//   load       {base, seconds, connections}: the usual traffic (lists, reads, creates) with autocannon
//   flood      {url, lines, seconds, connections}: requests of `lines` header lines, one after another
//   unfinished {url, count, headerBytes, body}: `count` connections, each sending a head of about
//              `headerBytes` (whole, with part of a body, when `body`; never whole otherwise); on
//              "close" on stdin, destroys them all
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { load } from './load.ts';

const [mode, json] = process.argv.slice(2);
const args = JSON.parse(json ?? '{}') as Record<string, unknown>;
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const key = { authorization: 'Bearer demo-enterprise' };

if (mode === 'load') {
  const result = await load(String(args.base), [
    { method: 'GET', path: '/pets?limit=20', headers: key },
    { method: 'GET', path: '/pets/42', headers: key },
    { method: 'POST', path: '/pets', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'pending' }) },
  ], { seconds: Number(args.seconds), connections: Number(args.connections) });
  say(result);
} else if (mode === 'flood') {
  const url = new URL(String(args.url));
  const head = `GET ${url.pathname} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-enterprise\r\nConnection: close\r\n${'x:\r\n'.repeat(Number(args.lines) - 3)}\r\n`;
  const until = performance.now() + Number(args.seconds) * 1000;
  const statuses: Record<string, number> = {};
  const one = () =>
    new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      let first = '';
      socket.on('data', (chunk: Buffer) => (first ||= chunk.toString('latin1').split('\r\n')[0]!));
      socket.on('error', () => {});
      socket.on('close', () => {
        const status = first.split(' ')[1] ?? 'none';
        statuses[status] = (statuses[status] ?? 0) + 1;
        resolve();
      });
      socket.write(head);
    });
  await Promise.all(Array.from({ length: Number(args.connections) }, async () => {
    while (performance.now() < until) await one();
  }));
  say({ statuses, bytes: head.length });
} else if (mode === 'unfinished') {
  const url = new URL(String(args.url));
  const line = `X-Filler: ${'f'.repeat(1000)}\r\n`;
  const filler = line.repeat(Math.max(1, Math.floor(Number(args.headerBytes) / line.length)));
  const head = args.body
    ? `POST ${url.pathname} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-enterprise\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n${filler}\r\n{"name":"Unfinished`
    : `GET ${url.pathname} HTTP/1.1\r\nHost: x\r\n${filler}`;
  const sockets: Socket[] = [];
  for (let i = 0; i < Number(args.count); i++) {
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => {});
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    await new Promise<void>((resolve) => socket.write(head, () => resolve()));
  }
  say({ open: sockets.length, bytesEach: head.length });
  for await (const command of createInterface({ input: process.stdin })) {
    if (command !== 'close') continue;
    for (const socket of sockets) socket.destroy();
    say({ closed: sockets.length });
    process.stdin.destroy();
    break;
  }
} else {
  throw new Error(`Unknown mode ${mode}: load, flood or unfinished.`);
}
