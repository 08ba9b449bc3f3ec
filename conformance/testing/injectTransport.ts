import type { FastifyInstance } from 'fastify';
import { decodeContent, defaultMaxBodyBytes, hasNoBody, responseOf, TransportError, type Transport, type TransportResponse } from '../http/transport.ts';

/** A request as a test deployment sees it: the path with its query, as on the wire. */
export interface Req {
  method: string;
  /** Path and query, e.g. `/v1/pets?limit=1`. */
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The client's address as the deployment sees it; 127.0.0.1 when not given. */
  remoteAddress?: string;
}

export interface Res {
  status: number;
  /** Header names in lower case; an array sends the header once per value, as separate lines. */
  headers: Record<string, string | string[]>;
  /** Text is sent as UTF-8; bytes are sent as they are (a BOM, Latin-1, a truncated sequence). */
  body: string | Uint8Array;
}

/** The mock's own answer as `forward` hands it to a transform: text, one value per header. A Res as it is. */
export interface MockRes {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a test deployment's transform gets besides the request: the deployment's own time. */
export interface DeploymentEnv {
  now(): number;
}

/** Rewrites one exchange: change the request, call `forward`, change the answer, or answer alone. */
export type Transform = (req: Req, forward: (req: Req) => Promise<MockRes>, env: DeploymentEnv) => Promise<Res>;

/** Thrown by a transform to drop the connection, as a load balancer recycling it would: the client sees a reset. */
export class DropConnection extends Error {
  constructor() {
    super('other side closed (UND_ERR_SOCKET)');
    this.name = 'DropConnection';
  }
}

export const passThrough: Transform = (req, forward) => forward(req);

function flatten(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/** Sends a request to the app through `inject()`: no socket, no port. The mock dates its answer on its own clock, as a deployment does. */
export function injectForward(app: FastifyInstance): (req: Req) => Promise<MockRes> {
  return async (req) => {
    const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, ...(req.body !== '' ? { payload: req.body } : {}), ...(req.remoteAddress !== undefined ? { remoteAddress: req.remoteAddress } : {}) });
    const headers = flatten(res.headers);
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    delete headers.connection;
    return { status: res.statusCode, headers, body: res.body };
  };
}

/**
 * The suite's transport backed by `app.inject()` of an in-process app, with a transform around it
 * (a fault or a legal choice). The suite sees what it would see over HTTP: a status, every header
 * line, the body's bytes and text (see `fromTheWire`), or a TransportError when the transform
 * drops the connection.
 */
export function injectTransport(app: FastifyInstance, transform: Transform = passThrough, env: DeploymentEnv = { now: () => Date.now() }): Transport {
  const forward = injectForward(app);
  return {
    // In process any address will do: the mock is told it as the client's.
    otherLocalAddress: async () => '127.0.0.2',
    async send({ method, url, headers, body, connection }) {
      const { pathname, search } = new URL(url);
      const req: Req = { method, url: `${pathname}${search}`, headers: flatten(headers), body: body ?? '', ...(connection?.localAddress !== undefined ? { remoteAddress: connection.localAddress } : {}) };
      let res: Res;
      try {
        res = await transform(req, forward, env);
      } catch (error) {
        if (error instanceof DropConnection) throw new TransportError(`${method} ${url} failed: ${error.message}`, url);
        throw error;
      }
      return fromTheWire(method, res, url);
    },
  };
}

/**
 * What `httpTransport` would make of `res` written on a socket: a text body as its UTF-8 bytes,
 * an array header once per line, no body for HEAD (nor a 204 or 304), the Content-Encoding undone,
 * cut at the cap.
 */
export async function fromTheWire(method: string, res: Res, url: string, maxBodyBytes = defaultMaxBodyBytes): Promise<TransportResponse> {
  const sent = responseOf(res.status, res.headers, hasNoBody(method, res.status) ? '' : res.body);
  const received = sent.bytes.length > maxBodyBytes ? sent.bytes.subarray(0, maxBodyBytes) : sent.bytes;
  let decoded: { bytes: Uint8Array; truncated: boolean };
  try {
    decoded = await decodeContent(received, sent.headers['content-encoding'], maxBodyBytes);
  } catch (error) {
    // As over HTTP: the raw bytes go with the error, judged unreadable once retries show the same.
    throw new TransportError(`${method} ${url} failed: its body is not valid ${sent.headers['content-encoding']}: ${(error as Error).message}`, url, responseOf(res.status, res.headers, received, true));
  }
  const truncated = received !== sent.bytes || decoded.truncated;
  if (decoded.bytes === sent.bytes && !truncated) return sent;
  return responseOf(res.status, res.headers, decoded.bytes, truncated);
}
