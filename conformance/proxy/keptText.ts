// What the proxy keeps of a request or an answer once it has been judged (for the reports, for a
// finding's evidence): bounded, and made of strings of its own.

/** Header names kept at most (the rest are counted in one more), and the characters of each value. */
const keptHeaderNames = 200;
const keptHeaderValue = 8 * 1024;

/** Headers with at most 200 names and 8 KiB of each value; what is left out is said in the headers kept. */
export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  let names = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (++names > keptHeaderNames) {
      out['x-proxy-note'] = `${Object.keys(headers).length - keptHeaderNames} more header names not kept`;
      break;
    }
    out[name] = value.length > keptHeaderValue ? `${cut(value, keptHeaderValue)}… (${value.length - keptHeaderValue} more characters not kept)` : value;
  }
  return out;
}

/** A copy of a string that holds no reference to a longer one it was cut from (V8 keeps a slice's parent alive). */
export const own = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');

/** The first `length` characters of a text, as a string of their own, and whether it was longer. */
export function cut(text: string, length: number): string {
  return text.length > length ? own(text.slice(0, length)) : text;
}

/** Characters of headers, for what is held. */
export function headersSize(headers: Record<string, string>): number {
  let size = 0;
  for (const [name, value] of Object.entries(headers)) size += name.length + value.length;
  return size;
}
