export type Credentials =
  | { kind: 'missing' }
  | { kind: 'other-scheme'; scheme: string }
  | { kind: 'malformed' }
  | { kind: 'bearer'; token: string };

// RFC 6750, 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const bearer = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?: +(.*))?$/;
const b64token = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Reads `Authorization: Bearer <key>`; the scheme is case-insensitive (RFC 9110, 11.1). */
export function parseAuthorization(header: string | undefined): Credentials {
  // The common case first, without the general parse: "Bearer <b64token>".
  if (header !== undefined && header.startsWith('Bearer ') && b64token.test(header.slice(7))) return { kind: 'bearer', token: header.slice(7) };
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const match = bearer.exec(header.trim());
  if (!match) return { kind: 'malformed' };
  const scheme = match[1]!;
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme', scheme };
  const token = (match[2] ?? '').trim();
  return b64token.test(token) ? { kind: 'bearer', token } : { kind: 'malformed' };
}
