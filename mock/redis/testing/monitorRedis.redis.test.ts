import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { monitorRedis } from './monitorRedis.ts';
import { startRedisServer, type TestRedisServer } from './redisServer.ts';

let server: TestRedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

it("starts monitoring while another client floods Redis without an error, and sees the flood and its own marker, UTF-8 included", async () => {
  const client = new Redis(server.url);
  let flooding = true;
  // Commands in flight while MONITOR starts: a line of them can share a TCP read with MONITOR's OK,
  // which is what made ioredis's monitor() throw.
  const flood = (async () => {
    while (flooding) await Promise.all(Array.from({ length: 50 }, (_, i) => client.echo(`flood-${i}`)));
  })();
  try {
    for (let round = 0; round < 20; round++) {
      const monitor = await monitorRedis(server.url);
      const seen: string[][] = [];
      const marker = `marker-${round}-…`;
      // The flood goes on, so one of its commands comes after the marker if none came before it:
      // wait for both, whichever MONITOR shows first.
      const bothSeen = new Promise<void>((resolve) =>
        monitor.onCommand(({ args }) => {
          seen.push(args);
          if (seen.some(([, text]) => text === marker) && seen.some(([name, text]) => name === 'echo' && text?.startsWith('flood-'))) resolve();
        }),
      );
      await client.echo(marker);
      await bothSeen;
      monitor.close();
      expect(seen).toContainEqual(['echo', marker]);
      expect(seen.some(([name, text]) => name === 'echo' && text?.startsWith('flood-'))).toBe(true);
    }
  } finally {
    flooding = false;
    await flood;
    client.disconnect();
  }
});
