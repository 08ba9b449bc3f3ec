import { jsonType } from './context.ts';
import type { Exchange } from './exchange.ts';

/** An answer's body as text, with the Content-Type its value has. */
export function bodyText(x: Exchange, body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') {
    x.headers['content-type'] ??= 'text/plain; charset=utf-8';
    return body;
  }
  const type = x.headers['content-type'];
  if (type === undefined) x.headers['content-type'] = jsonType;
  else if (/^application\/json\s*$/i.test(type)) x.headers['content-type'] = jsonType;
  return JSON.stringify(body);
}

/** Header names in lower case, as the answer's own are: Prism names its own `Content-Type`, and one name must not go out twice. */
export function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
