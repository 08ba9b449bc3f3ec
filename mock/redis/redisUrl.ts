// Redis URLs as the mock takes them, without loading the Redis client: the CLI reads them before
// it knows whether it needs Redis at all.

export const defaultRedisPrefix = 'pets-mock:';

/** A URL fit for logs and messages, as given but with the password replaced by `***`. */
export function redactRedisUrl(url: string): string {
  // Up to the last @ before the path, as URL parsers read it: a password may hold an unencoded @.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^/]*@/i, '$1***@');
}

/**
 * Checks a `--redis` URL before ioredis reads it: only `redis://` and `rediss://`, a whole-number
 * database index, and no query string (ioredis would read query items as client options, which
 * could undo the bounded failure behaviour below). Throws a message that says what to fix.
 */
export function checkRedisUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The Redis URL ${JSON.stringify(redactRedisUrl(url))} is not a URL. Give redis://[:password@]host[:port][/db] or rediss://… for TLS.`);
  }
  const where = redactRedisUrl(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`The Redis URL ${where} has the scheme "${parsed.protocol}". Use redis:// (or rediss:// for TLS).`);
  }
  if (!parsed.hostname) throw new Error(`The Redis URL ${where} names no host. Give redis://host[:port][/db].`);
  if (parsed.pathname !== '' && parsed.pathname !== '/' && !/^\/\d{1,5}$/.test(parsed.pathname)) {
    throw new Error(`The Redis URL ${where} has the path "${parsed.pathname}", which is not a database index. Give a whole number, e.g. redis://host:6379/2.`);
  }
  if (parsed.search) throw new Error(`The Redis URL ${where} has a query string. Leave it out: the mock sets the connection options itself.`);
}
