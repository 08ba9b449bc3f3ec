// Test deployments for the suite's own tests: the project's mock behind a small HTTP front that can
// rewrite requests and answers, so each variant breaks (or legally bends) exactly one rule.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildMock, type MockOptions } from '../../mock/app.ts';
import { generatePets } from '../../fixtures/generatePets.ts';
import { loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';

export interface Req {
  method: string;
  /** Path and query, e.g. `/v1/pets?limit=1`. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Res {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Rewrites one exchange: change the request, call `forward`, change the answer, or answer alone. */
export type Transform = (req: Req, forward: (req: Req) => Promise<Res>) => Promise<Res>;

export interface Deployment {
  baseUrl: string;
  mock: FastifyInstance;
  close(): Promise<void>;
}

let spec: Promise<LoadedSpec> | undefined;

function flatten(headers: IncomingHttpHeaders | Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/** Starts a deployment on 127.0.0.1 and a free port. */
export async function startDeployment(transform: Transform = (req, forward) => forward(req), mockOptions: MockOptions = {}): Promise<Deployment> {
  spec ??= loadSpec();
  const mock = await buildMock({ spec: await spec, pets: generatePets({ count: 60 }), ...mockOptions });
  const forward = async (req: Req): Promise<Res> => {
    const res = await mock.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, ...(req.body !== '' ? { payload: req.body } : {}) });
    const headers = flatten(res.headers);
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    delete headers.connection;
    return { status: res.statusCode, headers, body: res.body };
  };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const req: Req = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: flatten(incoming.headers), body: Buffer.concat(chunks).toString('utf8') };
      delete req.headers['content-length'];
      transform(req, forward).then(
        (res) => outgoing.writeHead(res.status, res.headers).end(res.body),
        (error: Error) => outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`test deployment failed: ${error.message}`),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    mock,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await mock.close();
    },
  };
}

// Small helpers for writing transforms.
export const json = (res: Res): unknown => (res.body === '' ? undefined : JSON.parse(res.body));
export const withJson = (res: Res, value: unknown): Res => ({ ...res, body: JSON.stringify(value) });
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
