const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
/** Double quotes that let the shell expand the placeholders a report shows for secrets (`$PETS_API_KEY`, `$WAF_TOKEN`), and nothing else. */
const placeholder = /\$[A-Z_][A-Z0-9_]*/;
const expanding = (value: string) => `"${value.replace(/[\\"`]/g, '\\$&').replace(/\$(?![A-Z_][A-Z0-9_]*)/g, '\\$')}"`;

/**
 * A curl line that reproduces a request. The run's API key is replaced by `$PETS_API_KEY`
 * (double-quoted so the shell expands it), so a report never holds the secret.
 */
export function curlCommand(request: { method: string; url: string; headers: Record<string, string>; body?: string; connection?: { localAddress?: string } }): string {
  const parts = ['curl', '-i'];
  if (request.connection?.localAddress !== undefined) parts.push('--interface', quote(request.connection.localAddress));
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(quote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (/^(user-agent|x-conformance-run-id)$/i.test(name)) continue;
    parts.push('-H', placeholder.test(value) ? expanding(`${name}: ${value}`) : quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}
