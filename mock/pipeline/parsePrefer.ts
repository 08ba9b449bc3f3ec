/**
 * Reads a `Prefer` header (RFC 7240): comma-separated preferences, each `token` or
 * `token=value` (the value may be a quoted-string, commas and semicolons included), with
 * `;`-separated parameters that are ignored. Several Prefer headers arrive joined by commas.
 * Names are case-insensitive.
 */
export function parsePrefer(header: string | string[] | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return preferences;
  for (const part of splitOutsideQuotes(text, ',')) {
    const [preference] = splitOutsideQuotes(part, ';');
    const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]*)))?\s*$/.exec(preference ?? '');
    if (!match) continue;
    const name = match[1]!.toLowerCase();
    // RFC 7240, 2: the first occurrence of a preference wins.
    if (!preferences.has(name)) preferences.set(name, match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? ''));
  }
  return preferences;
}

/** Splits at `separator` where it is not inside a quoted-string (RFC 9110, 5.6.4: `"…"` with `\` escapes). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '\\') i++;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
