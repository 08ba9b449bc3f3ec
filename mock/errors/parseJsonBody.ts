import type { FastifyRequest } from 'fastify';

/** A body whose JSON is valid but carries a "__proto__" or "constructor.prototype" key. */
export class PrototypeKeyError extends Error {
  override name = 'PrototypeKeyError';
  readonly statusCode = 400;
}

/** A body whose JSON nests arrays and objects deeper than the mock reads. */
export class NestingTooDeepError extends Error {
  override name = 'NestingTooDeepError';
  readonly statusCode = 400;
}

/**
 * The deepest nesting of arrays and objects a body may have. The contract's bodies nest two levels;
 * a limit keeps every later step (the prototype-key scan, validation, a message that quotes a
 * value, the client report's digest) within the stack, whatever the client sends.
 */
export const MAX_BODY_DEPTH = 64;

/** True when `value` nests arrays and objects deeper than MAX_BODY_DEPTH; walked without recursion. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** fastify's own error codes, so one mapping (toApiError) turns them into catalogue errors. */
function fastifyError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, statusCode: 400 });
}

/** True when the parsed value has a `__proto__` key, or a `constructor` key holding `prototype`, anywhere; walked without recursion. */
function hasPrototypeKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    for (const [key, child] of Object.entries(item)) {
      if (key === '__proto__') return true;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return true;
      stack.push(child);
    }
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
  // Only a body with 64 brackets in it can nest that deep: most bodies never pay for the walk.
  if (body.length > 2 * MAX_BODY_DEPTH && tooDeep(value)) {
    return done(new NestingTooDeepError(`The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`));
  }
  // The scan runs only when the text could hold such a key: most bodies never pay for it.
  if ((body.includes('__proto__') || body.includes('constructor')) && hasPrototypeKey(value)) {
    return done(new PrototypeKeyError('The request body has a "__proto__" or "constructor.prototype" key'));
  }
  done(null, value);
}
