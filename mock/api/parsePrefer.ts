/**
 * Reads a `Prefer` header (RFC 7240): comma-separated preferences, each `token` or
 * `token=value` (the value may be quoted), with `;`-separated parameters that are ignored.
 * Several Prefer headers arrive joined by commas. Names are case-insensitive.
 */
export function parsePrefer(header: string | string[] | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return preferences;
  for (const part of text.split(',')) {
    const [preference] = part.split(';');
    const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]*)))?\s*$/.exec(preference ?? '');
    if (!match) continue;
    const name = match[1]!.toLowerCase();
    // RFC 7240, 2: the first occurrence of a preference wins.
    if (!preferences.has(name)) preferences.set(name, match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? ''));
  }
  return preferences;
}
