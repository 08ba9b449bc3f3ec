// The token that guards the proxy's own report, as the mock's control token guards its control API
// (mock/control/controlTokenGuard.ts, docs/operators.md): the same option, the same environment
// variable, the same refusals. The report names every failing request of the traffic it saw.
import { createHash, timingSafeEqual } from 'node:crypto';

/** The environment variable the CLI reads the token from when --control-token is absent: the mock's. */
export const controlTokenVariable = 'PETS_MOCK_CONTROL_TOKEN';

/** What a 401 asks for (RFC 6750, 3): a realm of its own. */
const realm = 'Bearer realm="pets-conformance proxy"';

// RFC 6750, 2.1: a bearer token is a b64token; anything else could not be sent in the header.
const b64token = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Throws, saying what to give instead, for a token a client could not send as `Authorization: Bearer <token>`. */
export function checkControlToken(token: string, source = 'The control token'): void {
  if (!b64token.test(token)) {
    throw new Error(`${source} ${token === '' ? 'is empty' : `(${token.length} characters) has characters a bearer token cannot carry`}. Use letters, digits and - . _ ~ + / (with = only at the end), e.g. the output of "openssl rand -hex 32".`);
  }
}

/** A refusal: the status, its headers and its Error body. */
export interface Refusal {
  status: 401;
  headers: Record<string, string>;
  body: { code: string; message: string; status: 401 };
}

/**
 * The report's gate: what a request's Authorization is told, nothing (undefined) when it carries
 * the token. The scheme in any case (RFC 9110, 11.1); the tokens compared by their SHA-256 digests
 * in constant time, so the time says nothing of how much of a guess was right.
 */
export function controlTokenCheck(token: string): (authorization: string | undefined) => Refusal | undefined {
  checkControlToken(token);
  const expected = digest(token);
  return (authorization) => {
    const send = 'Send "Authorization: Bearer <token>" with the token the proxy was started with (--control-token or PETS_MOCK_CONTROL_TOKEN).';
    if (authorization === undefined || authorization.trim() === '') return refusal('CONTROL_TOKEN_REQUIRED', `The proxy's report needs a token and the request has no Authorization header. ${send}`, realm);
    const match = /^(\S+) +(\S+)$/.exec(authorization.trim());
    if (!match) return refusal('CONTROL_TOKEN_REQUIRED', `The Authorization header is malformed. ${send} Write it with one space and no quotes.`, `${realm}, error="invalid_request"`);
    if (match[1]!.toLowerCase() !== 'bearer') return refusal('CONTROL_TOKEN_REQUIRED', `The Authorization header uses the "${match[1]}" scheme; the proxy's report takes a bearer token. ${send}`, realm);
    if (timingSafeEqual(digest(match[2]!), expected)) return undefined;
    // The token sent is not shown: a near miss of the real one must not end up in logs.
    return refusal('CONTROL_TOKEN_INVALID', `The token sent (${match[2]!.length} characters) is not the one the proxy was started with. ${send}`, `${realm}, error="invalid_token"`);
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

const refusal = (code: string, message: string, challenge: string): Refusal => ({ status: 401, headers: { 'www-authenticate': challenge }, body: { code, message, status: 401 } });
