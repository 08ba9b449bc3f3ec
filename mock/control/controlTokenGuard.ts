import { hash, timingSafeEqual } from 'node:crypto';
import type { onRequestHookHandler } from 'fastify';
import { parseAuthorization } from '../api/parseAuthorization.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { redactKey } from '../state/keyRing.ts';

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
 * The control API's gate when the mock has a control token: every request must carry
 * `Authorization: Bearer <token>` (the scheme in any case, RFC 9110, 11.1), or it is refused with
 * 401 before anything is read or changed. OPTIONS passes: a browser's CORS preflight never carries
 * credentials (@fastify/cors answers it before this hook anyway), and OPTIONS reads and changes
 * nothing. The tokens are compared by their SHA-256 digests with timingSafeEqual: equal lengths
 * whatever was sent, and a time that says nothing about how much of a guess was right.
 */
export function controlTokenGuard(token: string): onRequestHookHandler {
  checkControlToken(token);
  const expected = digest(token);
  return (request, _reply, done) => {
    if (request.method === 'OPTIONS') return done();
    const credentials = parseAuthorization(request.headers.authorization);
    if (credentials.kind === 'bearer' && timingSafeEqual(digest(credentials.token), expected)) return done();
    done(refusal(credentials));
  };
}

function digest(token: string): Buffer {
  return hash('sha256', token, 'buffer');
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
