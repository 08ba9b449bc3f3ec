import type { ProxyRecord } from './proxyRecord.ts';

/** `Authorization: Bearer <token>` (RFC 6750, 2.1; the scheme in any case, RFC 9110 11.1). */
const bearer = /^bearer +(\S+)$/i;

export interface KeyBook {
  /** Each secret seen, longest first, with the token the reports show for it. */
  tokens: [secret: string, token: string][];
  /**
   * The seq of each key's first accepted answer: a key is one the deployment answered with
   * something other than 401 or 403 at least once. Before that, the proxy cannot tell a key
   * that became valid (created by an operator) from one the deployment wrongly refused.
   */
  acceptedFrom: Map<string, number>;
}

/**
 * Names the bearer tokens clients sent through the proxy, so the reports never hold one:
 * `$CLIENT_KEY_1`, `$CLIENT_KEY_2`, … for tokens the deployment accepted (the model judges each
 * one's rate-limit window on its own) and `$REFUSED_KEY_1`, … for tokens it never accepted, which
 * the model reads as wrong credentials that must get 401.
 */
export function keyBook(records: readonly ProxyRecord[]): KeyBook {
  const order: string[] = [];
  const acceptedFrom = new Map<string, number>();
  for (const record of records) {
    const secret = bearer.exec(record.requestHeaders.authorization ?? '')?.[1];
    if (secret === undefined) continue;
    if (!order.includes(secret)) order.push(secret);
    const status = record.response?.status;
    if (status !== undefined && status !== 401 && status !== 403 && !acceptedFrom.has(secret)) acceptedFrom.set(secret, record.seq);
  }
  let accepted = 0;
  let refused = 0;
  const tokens = order.map((secret): [string, string] => [secret, acceptedFrom.has(secret) ? `$CLIENT_KEY_${++accepted}` : `$REFUSED_KEY_${++refused}`]);
  // Longest first, so a key that contains another is replaced whole.
  tokens.sort((a, b) => b[0].length - a[0].length);
  return { tokens, acceptedFrom };
}

/** The text with every secret of the book replaced by its token. */
export function redactWith(book: KeyBook, text: string): string {
  let out = text;
  for (const [secret, token] of book.tokens) if (secret.length >= 4) out = out.split(secret).join(token);
  return out;
}
