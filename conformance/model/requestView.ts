// What a request means under the contract, read from the request as sent: which operation, which
// parameters, which credential. The model reads requests from the wire, never from what the
// generator meant, so it can judge any stream of exchanges.
import type { Exchange } from '../http/exchange.ts';

export type OperationId = 'listPets' | 'createPet' | 'getPet' | 'listStoreOrders';

/**
 * Which quota a credential spends: one of the keys the traffic holds, by the name reports give it:
 * `key` and `key2` for the suite's own keys, `CLIENT_KEY_<n>` for the keys the proxy saw accepted.
 */
export type KeyName = string;

export type Credential =
  /** One of the run's keys as `Bearer <key>`; `exactScheme` is false for another case of "Bearer". */
  | { kind: 'key'; key: KeyName; exactScheme: boolean }
  | { kind: 'none' }
  /** Something other than a bearer key the run holds: another scheme, a near miss of the key, a stranger's. */
  | { kind: 'wrong' };

export interface RequestView {
  method: string;
  /** The path relative to the base URL, without the query. */
  pathname: string;
  query: URLSearchParams;
  /** The documented operation the method and path name, or undefined for anything the spec does not list. */
  operation?: OperationId;
  /** getPet's petId as sent (decoded). */
  petId?: string;
  /**
   * For a method and path the spec does not list, the operation it spells another way: a trailing
   * or doubled slash, percent-encoded letters, another case (`/pets/`, `/%70ets`, `/PETS`). A
   * deployment may serve such a spelling or refuse it; if it serves it, it served that operation.
   */
  spells?: OperationId;
  credential: Credential;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body?: string;
  /** A CORS preflight: OPTIONS with Origin and Access-Control-Request-Method (Fetch standard). */
  preflight: boolean;
}

/** How a key appears in what is recorded: the suite and the proxy redact each key to its token. */
export const keyToken = (key: KeyName): string => (key === 'key' ? '$PETS_API_KEY' : key === 'key2' ? '$PETS_API_KEY_2' : `$${key}`);

/** The key a redacted token stands for, or undefined for anything else (a near miss, a stranger's key). */
function keyOfToken(token: string): KeyName | undefined {
  if (token === '$PETS_API_KEY') return 'key';
  if (token === '$PETS_API_KEY_2') return 'key2';
  return /^\$CLIENT_KEY_\d+$/.test(token) ? token.slice(1) : undefined;
}

function credentialOf(headers: Record<string, string>): Credential {
  const value = headers.authorization;
  if (value === undefined) return { kind: 'none' };
  // RFC 9110, 11.1: the scheme is case-insensitive; RFC 6750, 2.1: one or more spaces, then the token.
  const match = /^(bearer) +([^\s]+)$/i.exec(value);
  const key = match ? keyOfToken(match[2]!) : undefined;
  return key ? { kind: 'key', key, exactScheme: match![1] === 'Bearer' } : { kind: 'wrong' };
}

function operationOf(method: string, segments: string[]): { operation?: OperationId; petId?: string } {
  const [first, second, ...rest] = segments;
  if (rest.length > 0) return {};
  if (first === 'pets' && second === undefined) {
    if (method === 'GET') return { operation: 'listPets' };
    if (method === 'POST') return { operation: 'createPet' };
  }
  if (first === 'pets' && second !== undefined && second !== '' && method === 'GET') {
    let petId: string;
    try {
      petId = decodeURIComponent(second);
    } catch {
      petId = second;
    }
    return { operation: 'getPet', petId };
  }
  if (first === 'store' && second === 'orders' && method === 'GET') return { operation: 'listStoreOrders' };
  return {};
}

/** The documented operation GET of this path (relative to the base URL, no query) names: what a HEAD of it mirrors (RFC 9110, 9.3.2). */
export function operationAsGet(pathname: string): OperationId | undefined {
  return operationOf('GET', pathname.split('/').slice(1)).operation;
}

/** The operation a path names once its empty segments are dropped and each segment decoded and lower-cased. */
function spelledOperation(method: string, pathname: string): OperationId | undefined {
  const segments = pathname.split('/').filter((s) => s !== '').map((s) => {
    try {
      return decodeURIComponent(s).toLowerCase();
    } catch {
      return s.toLowerCase();
    }
  });
  return operationOf(method, segments).operation;
}

/** Reads one exchange's request. */
export function viewRequest(exchange: Pick<Exchange, 'path' | 'request'>): RequestView {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.request.headers)) headers[name.toLowerCase()] = value;
  const queryAt = exchange.path.indexOf('?');
  const pathname = queryAt < 0 ? exchange.path : exchange.path.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : exchange.path.slice(queryAt + 1));
  const method = exchange.request.method.toUpperCase();
  const segments = pathname.split('/').slice(1);
  const named = operationOf(method, segments);
  const spells = named.operation === undefined ? spelledOperation(method, pathname) : undefined;
  return {
    method,
    pathname,
    query,
    ...named,
    ...(spells !== undefined ? { spells } : {}),
    credential: credentialOf(headers),
    headers,
    ...(exchange.request.body !== undefined ? { body: exchange.request.body } : {}),
    preflight: method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined,
  };
}
