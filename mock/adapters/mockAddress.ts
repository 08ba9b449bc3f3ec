import { API_PREFIX, CONTROL_PREFIX } from '../core/prefixes.ts';

/** Where an adapter serves the API: the default is where `npm start` serves it. */
export const defaultBaseUrl = `http://127.0.0.1:4010${API_PREFIX}`;

/**
 * Where a frontend calls the mock, and how its URLs map onto the mock's own paths. The API may sit
 * at any origin and path (`https://api.example.com/pets/v1`); inside, it is always `/v1`. The
 * control API sits beside it, as the server has it beside `/v1`: `https://api.example.com/pets/__mock`.
 */
export class MockAddress {
  /** The API's origin, e.g. `http://127.0.0.1:4010`. */
  readonly origin: string;
  /** The API's path at that origin, without a trailing slash: `/v1`, or '' for the origin's root. */
  readonly basePath: string;
  /** The control API's path at that origin: `/__mock` beside the API's last segment. */
  readonly controlPath: string;

  constructor(baseUrl: string = defaultBaseUrl) {
    // A relative base (`/api/v1`) is read as a page would read it: against the document's address.
    const pageAddress = (globalThis as { location?: { href?: string } }).location?.href;
    let base: URL;
    try {
      base = new URL(baseUrl, pageAddress);
    } catch {
      throw new TypeError(`baseUrl ${JSON.stringify(baseUrl)} is not an absolute URL${pageAddress ? '' : ' (relative ones need a page address, as in jsdom)'}. Give one such as ${defaultBaseUrl}.`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`baseUrl ${JSON.stringify(baseUrl)} is not http(s). Give one such as ${defaultBaseUrl}.`);
    if (base.search || base.hash) throw new TypeError(`baseUrl ${JSON.stringify(baseUrl)} has a query or fragment. Give the API's base only, such as ${defaultBaseUrl}.`);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.controlPath = `${this.basePath.slice(0, Math.max(0, this.basePath.lastIndexOf('/')))}${CONTROL_PREFIX}`;
  }

  /** The API's base, e.g. `http://127.0.0.1:4010/v1`. */
  get baseUrl(): string {
    return `${this.origin}${this.basePath}`;
  }

  /** The control API's base, e.g. `http://127.0.0.1:4010/__mock`. */
  get controlUrl(): string {
    return `${this.origin}${this.controlPath}`;
  }

  /**
   * The mock's own path and query for a URL, or undefined when the URL is not the mock's.
   * The raw path is kept as sent (no decoding), so odd paths reach the mock as they would the server.
   */
  toMockPath(url: string | URL, { control = true }: { control?: boolean } = {}): string | undefined {
    const target = typeof url === 'string' ? new URL(url) : url;
    if (target.origin !== this.origin) return undefined;
    const controlRest = control ? under(target.pathname, this.controlPath) : undefined;
    if (controlRest !== undefined) return `${CONTROL_PREFIX}${controlRest}${target.search}`;
    const rest = under(target.pathname, this.basePath);
    if (rest !== undefined) return `${API_PREFIX}${rest}${target.search}`;
    return undefined;
  }

  /** A `Location` the mock gives (`/v1/pets/7`) as the page must follow it (`/pets/v1/pets/7`). */
  fromMockPath(path: string): string {
    return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) ? `${this.basePath}${path.slice(API_PREFIX.length)}` : path;
  }
}

/** The part of `path` below `prefix` ('' or '/...'), or undefined when it is not below it. */
function under(path: string, prefix: string): string | undefined {
  if (path === prefix) return '';
  if (prefix === '') return path.startsWith('/') ? path : undefined;
  if (path.startsWith(`${prefix}/`)) return path.slice(prefix.length);
  return undefined;
}
