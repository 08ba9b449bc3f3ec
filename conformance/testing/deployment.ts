// Test deployments for the suite's own tests: the project's mock with a transform around it, so
// each variant breaks (or legally bends) exactly one rule. In-process through `inject()` for the
// runner; behind a small HTTP front on 127.0.0.1 only for the tests about the CLI itself.
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildMock, ManualClock, type MockOptions } from '../../mock/index.ts';
import { testSpec } from '../../mock/testing.ts';
import { generatePets } from '../../fixtures/generatePets.ts';
import type { Transport, TransportRequest } from '../http/transport.ts';
import { injectForward, injectTransport, passThrough, type Req, type Res, type Transform } from './injectTransport.ts';

export type { MockRes, Req, Res, Transform } from './injectTransport.ts';
export { DropConnection } from './injectTransport.ts';

export interface Deployment {
  baseUrl: string;
  mock: FastifyInstance;
  /** The mock's clock: in-process, rate-limit windows move only when the suite's sleeps move it. */
  clock: { now(): number; advance(ms: number): void };
  /** Reaches the deployment in-process. */
  transport: Transport;
  close(): Promise<void>;
}

/** Builds a deployment in-process: the mock with 60 generated pets on a manual clock, the transform around it. */
export async function inProcessDeployment(
  transform: Transform = passThrough,
  mockOptions: MockOptions = {},
  // Half past twelve and thirty seconds: far from a minute or day boundary.
  clock: Deployment['clock'] = new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30)),
): Promise<Deployment> {
  const mock = await buildMock({ spec: await testSpec(), pets: generatePets({ count: 60 }), clock, ...mockOptions });
  return {
    baseUrl: 'http://deployment.test/v1',
    mock,
    clock,
    transport: injectTransport(mock, transform, clock),
    close: () => mock.close(),
  };
}

/** A clock on real time, at least 20 s before a minute ends when it starts. */
function realTimeClock(): Deployment['clock'] {
  // Over HTTP the suite waits in real time, so the mock keeps real time too: started at least 20 s
  // before a minute ends, so that a run's requests share their rate-limit windows rather than
  // straddle a boundary by chance (the evidence of a regression in the accounting would then depend
  // on the second the test started at).
  const intoMinute = Date.now() % 60_000;
  const offset = intoMinute > 40_000 ? 61_000 - intoMinute : 0;
  return { now: () => Date.now() + offset, advance: () => {} };
}

/**
 * The same deployment behind an HTTP front on 127.0.0.1 and a free port, for the tests about
 * sockets (the CLI, the proxy). Its Date header is its own clock's, as a server's is: real time
 * unless a test gives a clock it moves itself (then the suite's and the proxy's `now` must read it).
 */
export async function startDeployment(transform: Transform = passThrough, mockOptions: MockOptions = {}, clock: Deployment['clock'] = realTimeClock()): Promise<Deployment> {
  const deployment = await inProcessDeployment(transform, mockOptions, clock);
  const forward = injectForward(deployment.mock);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined && k !== 'content-length') headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const req: Req = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8'), ...(incoming.socket.remoteAddress !== undefined ? { remoteAddress: incoming.socket.remoteAddress } : {}) };
      transform(req, forward, deployment.clock).then(
        // An array value goes out as one header line per value; bytes go out as they are.
        (res: Res) => outgoing.writeHead(res.status, res.headers).end(res.body),
        (error: Error) => (error.name === 'DropConnection' ? outgoing.destroy() : outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`test deployment failed: ${error.message}`)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...deployment,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deployment.mock.close();
    },
  };
}

/** A transport that records each request before sending it on. */
export function passThroughRecorder(transport: Transport, sent: TransportRequest[]): Transport {
  return {
    send(request, timeoutMs) {
      sent.push(request);
      return transport.send(request, timeoutMs);
    },
    ...(transport.otherLocalAddress ? { otherLocalAddress: transport.otherLocalAddress.bind(transport) } : {}),
  };
}

// Small helpers for writing transforms.
export const text = (res: Res): string => (typeof res.body === 'string' ? res.body : new TextDecoder('utf-8', { ignoreBOM: true }).decode(res.body));
export const json = (res: Res): unknown => (text(res) === '' ? undefined : parseJsonExact(text(res)));
export const withJson = (res: Res, value: unknown): Res => ({ ...res, body: stringifyExact(value) });
export const path = (req: Req) => new URL(req.url, 'http://x').pathname;
export const query = (req: Req) => new URL(req.url, 'http://x').searchParams;
export function withQuery(req: Req, change: (q: URLSearchParams) => void): Req {
  const url = new URL(req.url, 'http://x');
  change(url.searchParams);
  return { ...req, url: `${url.pathname}${url.search}` };
}
export const isList = (req: Req) => req.method === 'GET' && path(req) === '/v1/pets';
export const isCreate = (req: Req) => req.method === 'POST' && path(req) === '/v1/pets';
export const isGetPet = (req: Req) => req.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(path(req));
