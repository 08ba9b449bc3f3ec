/**
 * JSON.parse reads every number as a double, so an int64 id above 2^53 - 1 comes back as another
 * number and a value beyond int64 looks like a plausible one. This parser keeps every integer
 * literal that a double cannot hold exactly as a BigInt, so the suite can name the exact id in a
 * path and hold every integer to the int64 range (RFC 8259, section 6 leaves the precision to the
 * implementation; the contract's ids are int64).
 */
export type LosslessValue = null | boolean | number | bigint | string | LosslessValue[] | { [key: string]: LosslessValue };

export class JsonSyntaxError extends Error {}

/** How deep a body may nest: a Pet list is three deep; far past that is no answer of this API. */
export const maxDepth = 256;

/**
 * Whether JSON text nests deeper than `limit` arrays and objects, found by one pass over it (strings
 * skipped): parsing such a text whole builds a value per level, hundreds of MB for a few MB of brackets.
 */
export function nestsDeeperThan(text: string, limit = maxDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * A JSON number literal (RFC 8259, 6), matched where `lastIndex` puts it (sticky): the whole token,
 * however long, since the grammar sets no limit on its digits; one pass, no backtracking.
 */
const numberToken = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * `number` reads each number literal (its text as written) instead of the default: integers a
 * double cannot hold exactly as BigInts, every other literal as JSON.parse reads it. A literal of
 * any length is read whole (RFC 8259, 6 sets no limit: a 200,000-digit one too), in one pass over it.
 */
export function parseLossless(text: string, { number }: { number?: (literal: string) => LosslessValue } = {}): LosslessValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  let depth = 0;
  const value = (): LosslessValue => {
    ws();
    const c = text[i];
    // A body nested thousands deep is no Pet: refuse it as JSON rather than exhaust the stack.
    if ((c === '{' || c === '[') && ++depth > maxDepth) fail(`nesting deeper than ${maxDepth}`);
    if (c === '{') {
      i++;
      const out: { [key: string]: LosslessValue } = {};
      ws();
      if (text[i] === '}') return i++, depth--, out;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const key = string();
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, depth--, out;
        else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const out: LosslessValue[] = [];
      ws();
      if (text[i] === ']') return i++, depth--, out;
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, depth--, out;
        else fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    numberToken.lastIndex = i;
    const m = numberToken.exec(text);
    if (!m) return fail('unexpected character');
    const literal = m[0];
    i += literal.length;
    if (number) return number(literal);
    const n = Number(literal);
    // Whole (no fraction, no exponent) and past a double's exact integers: its digits, as a BigInt.
    if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(n)) return BigInt(literal);
    return n;
  };
  const string = (): string => {
    const start = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '"') break;
      if (c === '\\') i++;
      else if (c! < ' ') fail('control character in a string');
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const result = value();
  ws();
  if (i !== text.length) fail('unexpected text after the value');
  return result;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The value as JSON.parse would give it, for schema validation: BigInts become the nearest double. */
export function toPlain(value: LosslessValue): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** Whether an integer is within int64, the range the contract gives every id. */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** Where an integer literal lies outside int64, as `[3].id`-style paths under `root`, with its digits. */
export function beyondInt64(value: LosslessValue, root = 'body'): { path: string; digits: string }[] {
  const found: { path: string; digits: string }[] = [];
  const walk = (v: LosslessValue, path: string) => {
    if (typeof v === 'bigint') {
      if (!isInt64(v)) found.push({ path, digits: v.toString() });
    } else if (Array.isArray(v)) v.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, `${path}.${k}`);
  };
  walk(value, root);
  return found;
}

/** Marks a string that stands for a JSON number written as is (`@raw-json-number:123`), for bodies past a double's precision. */
export const RAW_NUMBER = '@raw-json-number:';

/**
 * JSON text of a value that may hold BigInts, each written with its exact digits (JSON.stringify
 * throws on one). Without BigInts it is JSON.stringify's text; with them, each is first written as
 * a string carrying a marker no string of the value holds, then the quoted marker is replaced by
 * the digits, so that no name can pass for a number.
 */
export function stringifyExact(value: unknown, space?: number): string {
  let found = false;
  const plain = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? ((found = true), 0) : v), space);
  if (!found) return plain;
  let marker = 'bigint:';
  for (let n = 1; plain.includes(marker); n++) marker = `bigint${n}:`;
  const marked = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v), space);
  return marked.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}

/**
 * JSON text of a value that may hold BigInts (read losslessly, or integers past 2^53 the suite
 * sends on purpose), each with its exact digits (stringifyExact); a string
 * `${RAW_NUMBER}<digits>` is written as the bare number too.
 */
export function toJsonText(value: unknown): string {
  return stringifyExact(value).replace(new RegExp(`"${RAW_NUMBER}(-?\\d+)"`, 'g'), '$1');
}

/** The exact decimal text of an integer read losslessly (a number or a BigInt), or undefined. */
export function integerText(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return undefined;
}
