// What the proxy keeps of a request or an answer once it has been judged (for the reports, for a
// finding's evidence): bounded, and made of strings of its own.

/** Header names kept at most (the rest are counted in one more), and the characters of each value. */
const keptHeaderNames = 200;
const keptHeaderValue = 8 * 1024;

/** Headers with at most 200 names and 8 KiB of each value; what is left out is said in the headers kept. */
export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
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

/**
 * A request's header lines as the reports keep them, built from the lines themselves: names in
 * lower case, repeated ones joined with ", ", at most 200 names and 8 KiB of each value (the key's
 * header whole), so a head of any size costs no more than that to keep. Without a prototype: a
 * header may be named `__proto__`.
 */
export function cappedHeaders(rawHeaders: readonly string[]): Record<string, string> {
  const kept = new Map<string, { parts: string[]; length: number; cut: number }>();
  let more = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = rawHeaders[i + 1]!;
    let entry = kept.get(name);
    if (!entry) {
      if (kept.size >= keptHeaderNames) {
        more++;
        continue;
      }
      kept.set(name, (entry = { parts: [], length: 0, cut: 0 }));
    }
    const added = (entry.parts.length > 0 ? 2 : 0) + value.length;
    if (entry.length < keptHeaderValue || name === 'authorization') {
      entry.parts.push(value);
      entry.length += added;
    } else entry.cut += added;
  }
  const out = Object.create(null) as Record<string, string>;
  for (const [name, { parts, length, cut: rest }] of kept) {
    const value = parts.join(', ');
    const over = name === 'authorization' ? 0 : Math.max(0, length - keptHeaderValue) + rest;
    out[name] = over > 0 ? `${cut(value, keptHeaderValue)}… (${over} more characters not kept)` : value;
  }
  if (more > 0) out['x-proxy-note'] = `${more} more header lines of other names not kept`;
  return out;
}
