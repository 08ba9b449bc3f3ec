/** A word the shell reads as it is: single quotes, a single quote closed, escaped and reopened. */
export const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
/** Double quotes that let the shell expand the placeholders a report shows for secrets (`$PETS_API_KEY`, `$WAF_TOKEN`), and nothing else. */
const placeholder = /\$[A-Z_][A-Z0-9_]*/;
const expanding = (value: string) => `"${value.replace(/[\\"`]/g, '\\$&').replace(/\$(?![A-Z_][A-Z0-9_]*)/g, '\\$')}"`;

type CurlRequest = { method: string; url: string; headers: Record<string, string>; body?: string; connection?: { localAddress?: string } };

/**
 * The words of a curl command that sends `request` (after `curl` and its output flags), with `url`
 * as the shell word for its address. HEAD is sent as curl sends it (`-I`), which does not wait for
 * a body; a request that asks for compression gets `--compressed`, so the answer shows decoded.
 * The run's API key reads `$PETS_API_KEY` (double-quoted so the shell expands it).
 */
export function curlArgs(request: CurlRequest, url = shellQuote(request.url)): string[] {
  const parts: string[] = [];
  // A request the run sent from another local address (the same key from another client) says so.
  if (request.connection?.localAddress !== undefined) parts.push('--interface', shellQuote(request.connection.localAddress));
  if (request.method === 'HEAD') parts.push('-I');
  else if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(url);
  for (const [name, value] of Object.entries(request.headers)) {
    if (/^(user-agent|x-conformance-run-id)$/i.test(name)) continue;
    if (/^accept-encoding$/i.test(name)) parts.push('--compressed');
    parts.push('-H', placeholder.test(value) ? expanding(`${name}: ${value}`) : shellQuote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  return parts;
}

/**
 * A curl line that reproduces a request. The run's API key is replaced by `$PETS_API_KEY`
 * (double-quoted so the shell expands it), so a report never holds the secret.
 */
export function curlCommand(request: CurlRequest): string {
  return ['curl', '-i', ...curlArgs(request)].join(' ');
}

/** A double-quoted shell word in which only the given `$name`s expand: `"$base/pets/$id_12"`. */
export function expandingWord(text: string, names: readonly string[]): string {
  const escaped = text.replace(/[\\"`]/g, '\\$&').replace(/\$/g, '\\$');
  return `"${names.reduce((out, name) => out.replaceAll(`\\$\{${name}}`, `\${${name}}`), escaped)}"`;
}
