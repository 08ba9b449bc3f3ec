// The body step: the request's body read once, and parsed as JSON, in its turn.
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { bodyBytes, readJsonBody } from './readRequest.ts';

/** The body's bytes, read once (x.bytes): a host that streams them hands them over once. */
export function bytesOf(x: Exchange): Awaitable<Uint8Array | undefined> {
  if (x.bodyRead) return x.bytes;
  const keep = (bytes: Uint8Array | undefined) => {
    x.bodyRead = true;
    return (x.bytes = bytes);
  };
  const bytes = bodyBytes(x.request, x.method);
  return isPromise(bytes) ? bytes.then(keep) : keep(bytes);
}

/**
 * Body step: the body read and parsed (x.body), once the request is admitted and routed, so a
 * refused request's body is never read. A path no route serves refuses no type (its answer is
 * the 404); a body read ahead and validated is not parsed again.
 */
export function readBody(ctx: Pick<ApiContext, 'bodyLimit'>, x: Exchange): Promise<void> | undefined {
  if (x.checked) return undefined;
  const bytes = bytesOf(x);
  if (isPromise(bytes)) return bytes.then(() => parseBody(ctx, x));
  parseBody(ctx, x);
  return undefined;
}

function parseBody(ctx: Pick<ApiContext, 'bodyLimit'>, x: Exchange): void {
  x.body = readJsonBody(x.request, x.bytes, x.method, ctx.bodyLimit, { routed: x.route !== undefined });
}
