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

/** HTTP through Node's built-in fetch (undici). */
export const fetchTransport: Transport = {
  async send({ method, url, headers, body }, timeoutMs) {
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      const reason = (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : cause?.code ?? cause?.message ?? (error as Error).message;
      throw new TransportError(`${method} ${url} failed: ${reason}`, url);
    }
    const text = await response.text();
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    return { status: response.status, headers: responseHeaders, body: text };
  },
};
