import type { FastifyRequest } from 'fastify';

/** A body whose JSON is valid but carries a "__proto__" or "constructor.prototype" key. */
export class PrototypeKeyError extends Error {
  override name = 'PrototypeKeyError';
  readonly statusCode = 400;
}

/** fastify's own error codes, so one mapping (toApiError) turns them into catalogue errors. */
function fastifyError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, statusCode: 400 });
}

/** True when the parsed value has a `__proto__` key, or a `constructor` key holding `prototype`, anywhere. */
function hasPrototypeKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const [key, child] of Object.entries(value)) {
    if (key === '__proto__') return true;
    if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return true;
    if (hasPrototypeKey(child)) return true;
  }
  return false;
}

/**
 * The JSON body parser. Like fastify's, it refuses prototype-poisoning keys (JSON.parse keeps
 * `__proto__` as an own property, so nothing is poisoned by parsing; the key is refused so no later
 * merge can be); unlike fastify's, it says so, instead of calling valid JSON malformed, and a
 * malformed body's message names what JSON.parse found.
 */
export function parseJsonBody(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void): void {
  if (body.length === 0) return done(fastifyError('FST_ERR_CTP_EMPTY_JSON_BODY', 'Body cannot be empty when content-type is set to \'application/json\''));
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return done(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', (error as Error).message));
  }
  // The scan runs only when the text could hold such a key: most bodies never pay for it.
  if ((body.includes('__proto__') || body.includes('constructor')) && hasPrototypeKey(value)) {
    return done(new PrototypeKeyError('The request body has a "__proto__" or "constructor.prototype" key'));
  }
  done(null, value);
}
