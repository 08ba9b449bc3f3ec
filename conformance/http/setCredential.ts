import type { Auth } from './exchange.ts';

/** Removes a header by name, whatever its case (RFC 9110, 5.1: field names are case-insensitive). */
export function dropHeader(headers: Record<string, string>, name: string): void {
  for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
}

/**
 * Writes a request's credential into its headers (in place): the run's key as `Bearer`, a key
 * spelled another way under its own header name (any `Authorization` dropped, so only that one is
 * sent), or a given Authorization as is. `keyOf` gives the key each of the run's keys stands for.
 */
export function setCredential(headers: Record<string, string>, auth: Auth, keyOf: (which: 'key' | 'key2') => string): void {
  if (auth === 'none') return;
  if (auth === 'key' || auth === 'key2') headers.authorization = `Bearer ${keyOf(auth)}`;
  else if ('key' in auth) {
    dropHeader(headers, 'authorization');
    headers[auth.headerName] = `${auth.scheme} ${keyOf(auth.key)}`;
  } else headers.authorization = auth.authorization;
}
