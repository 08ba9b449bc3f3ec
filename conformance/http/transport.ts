/** What the suite needs of HTTP: send one request, get status, headers and body back. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Transport {
  send(request: TransportRequest, timeoutMs: number): Promise<TransportResponse>;
}

/** The target did not answer: refused, reset, unresolvable, or too slow. */
export class TransportError extends Error {
  constructor(message: string, readonly url: string) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Why a fetch failed, in words a report can show: the code undici gives (UND_ERR_SOCKET, ECONNREFUSED) or a timeout. */
function failureReason(error: unknown, timeoutMs: number): string {
  const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** HTTP through Node's built-in fetch (undici). A reset while the body streams in is a transport error too. */
export const fetchTransport: Transport = {
  async send({ method, url, headers, body }, timeoutMs) {
    try {
      const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name] = value;
      });
      return { status: response.status, headers: responseHeaders, body: text };
    } catch (error) {
      throw new TransportError(`${method} ${url} failed: ${failureReason(error, timeoutMs)}`, url);
    }
  },
};
