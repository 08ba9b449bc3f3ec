import { bodyIsSent } from '../pipeline/readRequest.ts';
import { ConnectionResetError, type CoreAnswer, type CoreRequest } from './coreTypes.ts';

/**
 * A WHATWG Request answered by a plain-data answerer: the URL's path and query are the mock's
 * path, the headers in lower case, the body as bytes when the request has one (RFC 9112, 6.3: a
 * length or chunks, which fetch gives as Content-Length), the Response built from the answer.
 * A fault rule's reset is a network error, as a dropped connection is to fetch. `arrivedAt` is the
 * mock's clock when the request was handed over, taken by the caller before the body is awaited.
 */
export async function answerFetch(answer: (request: CoreRequest) => Promise<CoreAnswer>, request: Request, { client, arrivedAt }: { client?: string | undefined; arrivedAt: number }): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const method = request.method.toUpperCase();
  const bytes = method === 'GET' || method === 'HEAD' || request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  const sent = bytes && bytes.byteLength > 0 ? bytes : undefined;
  if (sent && headers['content-length'] === undefined) headers['content-length'] = String(sent.byteLength);
  const body = bodyIsSent(headers) ? (sent ?? new Uint8Array(0)) : undefined;
  try {
    const answered = await answer({ method, url: `${url.pathname}${url.search}`, headers, body, client, arrivedAt, signal: request.signal });
    // The headers as pairs: fetch's Headers reads an object through WebIDL's record conversion, several times slower.
    return new Response(answered.body, { status: answered.status, headers: Object.entries(answered.headers) });
  } catch (error) {
    if (error instanceof ConnectionResetError) return Response.error();
    throw error;
  }
}
