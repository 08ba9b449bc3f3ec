import { parseJsonExact } from '../../common/json/exactJson.ts';
import { BodyError } from '../errors/requestErrors.ts';

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
 * A JSON body's value, its numbers exact (parseJsonExact: an int64 past 2^53 - 1 is a BigInt with
 * the digits sent, never a rounded double; only a body with a long or exponent number literal is
 * read twice). It refuses prototype-poisoning keys: JSON.parse keeps `__proto__` as an own
 * property, so nothing is poisoned by parsing, but the key is refused so that no later merge can
 * be; the refusal says so rather than call valid JSON malformed, and a malformed body's message
 * names what JSON.parse found. Throws BodyError.
 */
export function parseJsonBody(body: string): unknown {
  if (body.length === 0) throw new BodyError('empty', 'The request body is empty');
  let value: unknown;
  try {
    value = parseJsonExact(body);
  } catch (error) {
    throw new BodyError('malformed', (error as Error).message);
  }
  // Only a body with 64 brackets in it can nest that deep: most bodies never pay for the walk.
  if (body.length > 2 * MAX_BODY_DEPTH && tooDeep(value)) {
    throw new BodyError('too-deep', `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`);
  }
  // The scan runs only when the text could hold such a key: most bodies never pay for it.
  if ((body.includes('__proto__') || body.includes('constructor')) && hasPrototypeKey(value)) {
    throw new BodyError('prototype-key', 'The request body has a "__proto__" or "constructor.prototype" key');
  }
  return value;
}
