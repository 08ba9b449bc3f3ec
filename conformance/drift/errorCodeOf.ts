import type { TransportResponse } from '../http/transport.ts';

/** The `code` of an answer's Error body, when its body is JSON with a string `code`. */
export function errorCodeOf(answer: TransportResponse): string | undefined {
  try {
    const body: unknown = JSON.parse(answer.body);
    return body !== null && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : undefined;
  } catch {
    return undefined;
  }
}
