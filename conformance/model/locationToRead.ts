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
  target.hash = '';
  const named = /\/pets\/(-?\d+)$/.exec(target.pathname)?.[1];
  if (named !== undefined && BigInt(named) !== BigInt(createdId)) return undefined;
  const basePath = base.pathname.replace(/\/+$/, '');
  if (target.href === `${base.origin}${basePath}/pets/${createdId}`) return undefined;
  const inside = target.pathname.startsWith(`${basePath}/`);
  const pathname = inside ? target.pathname.slice(basePath.length) : `${'/..'.repeat(basePath.split('/').filter(Boolean).length)}${target.pathname}`;
  return { location, url: target.href, path: `${pathname}${target.search}`, operationId: (inside ? operationAsGet(pathname) : undefined) ?? 'unlisted' };
}
