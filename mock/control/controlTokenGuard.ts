import { parseAuthorization } from '../pipeline/parseAuthorization.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { redactKey } from '../state/keyRing.ts';
import { keyDigest } from '../state/keyEntry.ts';

/** The environment variable the CLI reads the control token from when --control-token is absent. */
export const controlTokenVariable = 'PETS_MOCK_CONTROL_TOKEN';

/** What a 401 of the control API asks for (RFC 6750, 3): its own realm, apart from the API's "pets". */
const REALM = 'Bearer realm="pets-mock control"';

// RFC 6750, 2.1: a bearer token is a b64token; anything else could not be sent in the header.
const b64token = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Throws, saying what to give instead, for a token a client could not send as `Authorization: Bearer <token>`. */
export function checkControlToken(token: string, source = 'The control token'): void {
  if (!b64token.test(token)) {
    throw new Error(`${source} ${token === '' ? 'is empty' : `(${token.length} characters) has characters a bearer token cannot carry`}. Use letters, digits and - . _ ~ + / (with = only at the end), e.g. the output of "openssl rand -hex 32".`);
  }
}

/**
 * The control API's gate when the mock has a control token: every request but a CORS preflight
 * must carry `Authorization: Bearer <token>` (the scheme in any case, RFC 9110, 11.1), or it is
 * refused with 401 before anything is read or changed. What a request's Authorization is told:
 * nothing (undefined) when it carries the token, else the 401. The tokens are compared by their SHA-256 digests, every character of them: equal
 * lengths whatever was sent, and a time that says nothing about how much of a guess was right.
 */
export function controlTokenCheck(token: string): (authorization: string | undefined) => ApiError | undefined {
  checkControlToken(token);
  const expected = keyDigest(token);
  return (authorization) => {
    const credentials = parseAuthorization(authorization);
    if (credentials.kind === 'bearer' && sameDigest(keyDigest(credentials.token), expected)) return undefined;
    return refusal(credentials);
  };
}

/** Equal digests, compared in constant time (they always have the same length). */
function sameDigest(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function refusal(credentials: ReturnType<typeof parseAuthorization>): ApiError {
  const send = 'Send "Authorization: Bearer <token>" with the token the mock was started with (--control-token or PETS_MOCK_CONTROL_TOKEN).';
  switch (credentials.kind) {
    case 'missing':
      return new ApiError('CONTROL_TOKEN_REQUIRED', `The control API needs a token and the request has no Authorization header. ${send}`, { 'www-authenticate': REALM });
    case 'other-scheme':
      return new ApiError('CONTROL_TOKEN_REQUIRED', `The Authorization header uses the "${credentials.scheme}" scheme; the control API takes a bearer token. ${send}`, { 'www-authenticate': REALM });
    case 'malformed':
      return new ApiError('CONTROL_TOKEN_REQUIRED', `The Authorization header is malformed. ${send} Write it with one space and no quotes.`, { 'www-authenticate': `${REALM}, error="invalid_request"` });
    case 'bearer':
      // The token sent is shown redacted: a near miss of the real token must not end up in logs.
      return new ApiError('CONTROL_TOKEN_INVALID', `The control token sent (${redactKey(credentials.token)}) is not the one the mock was started with. ${send}`, { 'www-authenticate': `${REALM}, error="invalid_token"` });
  }
}
