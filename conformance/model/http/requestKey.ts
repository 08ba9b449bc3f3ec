// How the linter files an answer: by the credential that asked (a representation may vary with
// it) and the URL as sent.
import type { Exchange } from '../../http/exchange.ts';
import type { RequestView } from '../requestView.ts';

export const credentialOf = (view: RequestView): string => (view.credential.kind === 'key' ? `key:${view.credential.key}` : view.credential.kind);

/** One URL asked with one credential. */
export const getKey = (exchange: Exchange, view: RequestView): string => `${credentialOf(view)}\0${exchange.path}`;

/** The contract's rate-limit headers, which every API response carries. */
export const rateLimitFields = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

export const isSuccess = (status: number) => status >= 200 && status < 300;

export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
