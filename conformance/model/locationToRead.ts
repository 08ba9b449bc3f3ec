// Where a 201's Location leads, for the run to read it. RFC 9110, 15.3.2: "the primary resource
// created by the request is identified by either a Location header field in the response or, if
// no Location header field is received, by the target URI"; 10.2.2: Location is a URI reference,
// resolved against the target URI.
import type { Exchange } from '../http/exchange.ts';
import { operationAsGet, type OperationId } from './requestView.ts';

export interface LocationToRead {
  /** The Location as sent. */
  location: string;
  /** Where it resolves, without a fragment. */
  url: string;
  /** The path to send, relative to the base URL: dot segments climb out of the base when the Location lies outside it. */
  path: string;
  /** The operation GET of that path names under the contract, or `unlisted`. */
  operationId: OperationId | 'unlisted';
}

/**
 * The URL a create's Location names, when reading it tells something the run does not already
 * read: undefined without a Location, for one that is no URI reference or names another origin
 * (the run sends its key to the deployment's origin alone), for the pet's own URL under the base
 * (`<base>/pets/<id>`, which the run reads by id anyway), and for `/pets/<another id>`, which
 * names another pet on its face (http.location says so).
 */
export function locationToRead(create: Pick<Exchange, 'path' | 'request' | 'response'>, createdId: string): LocationToRead | undefined {
  // One Location line: a second is http.location's to report, and their joined text names nothing.
  const lines = create.response.rawHeaders.filter(([name]) => name === 'location');
  if (lines.length !== 1) return undefined;
  const location = lines[0]![1];
  const requestUrl = create.request.url;
  // The base URL is the request's URL without the path the run gave relative to it.
  if (!requestUrl.endsWith(create.path)) return undefined;
  const baseText = requestUrl.slice(0, requestUrl.length - create.path.length);
  let base: URL;
  let target: URL;
  try {
    base = new URL(baseText);
    target = new URL(location.trim(), requestUrl);
  } catch {
    return undefined;
  }
  if (target.origin !== base.origin) return undefined;
  const named = /\/pets\/(-?\d+)$/.exec(target.pathname)?.[1];
  if (named !== undefined && BigInt(named) !== BigInt(createdId)) return undefined;
  const basePath = base.pathname.replace(/\/$/, '');
  const url = `${target.origin}${target.pathname}${target.search}`;
  if (sameUrl(url, `${base.origin}${basePath}/pets/${createdId}`)) return undefined;
  const inside = target.pathname.startsWith(`${basePath}/`);
  // Out of the base: one `..` per segment of its path, empty ones too (`/api//v1` has three).
  const pathname = inside ? target.pathname.slice(basePath.length) : `${'/..'.repeat(basePath.split('/').length - 1)}${target.pathname}`;
  const path = `${pathname}${target.search}`;
  // Sent as the base's text and this path: only where that resolves to the Location's URL.
  if (!sameUrl(new URL(`${baseText}${path}`).href, url)) return undefined;
  return { location, url, path, operationId: (inside ? operationAsGet(pathname) : undefined) ?? 'unlisted' };
}

/** Two URLs alike but for what RFC 3986 (6.2.2) makes equivalent: the case of a percent-encoding's hex digits, an empty query. */
function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => url.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase()).replace(/\?$/, '');
  return normal(a) === normal(b);
}

/**
 * Whether an exchange's request went outside the API's base URL: its path, relative to the base,
 * climbs out of it with dot segments (`/../pets/7`), which every client resolves before sending. What
 * answers there is not the API: the model does not judge it.
 */
export function outsideTheBase(exchange: Pick<Exchange, 'path' | 'request'>): boolean {
  // A dot segment, written or percent-encoded (the URL standard reads `%2e` as `.`).
  if (!/\.|%2e/i.test(exchange.path)) return false;
  const { url } = exchange.request;
  if (!url.endsWith(exchange.path)) return false;
  try {
    const basePath = new URL(url.slice(0, url.length - exchange.path.length)).pathname.replace(/\/$/, '');
    const { pathname } = new URL(url);
    return pathname !== basePath && !pathname.startsWith(`${basePath}/`);
  } catch {
    return false;
  }
}
