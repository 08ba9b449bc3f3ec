import { InvalidArgumentError, Option } from 'commander';

/** A header field name is an RFC 9110 token. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the suite or the HTTP client sets itself; sending them too would change what a check tests. */
const refused: Record<string, string> = {
  authorization: 'The API key has its own option: give it with --api-key or PETS_API_KEY, and the suite sends it as a bearer token (and withholds it where a check must).',
  host: 'The HTTP client sets Host from --base-url.',
  'content-length': 'The HTTP client sets Content-Length from the body.',
  'transfer-encoding': 'The HTTP client sets Transfer-Encoding.',
  connection: 'The HTTP client manages connections.',
};

/** Parses one `Name: value` header (RFC 9110 field syntax), refusing the ones the suite owns. Returns [lower-case name, value]. */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon < 1) throw new InvalidArgumentError(`"${text}" is not a header. Give it as "Name: value", e.g. -H "X-Tenant: acme".`);
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (!token.test(name)) throw new InvalidArgumentError(`"${name}" is not a valid header name (RFC 9110 allows letters, digits and !#$%&'*+.^_\`|~-).`);
  if (/[\0\r\n]/.test(value)) throw new InvalidArgumentError(`The value of header ${name} holds a line break or NUL, which HTTP does not allow.`);
  const reason = refused[name.toLowerCase()];
  if (reason) throw new InvalidArgumentError(`The ${name} header cannot be set with --header. ${reason}`);
  return [name.toLowerCase(), value];
}

/** The headers of a run, by lower-case name; a later one replaces an earlier one of the same name. */
export function headerMap(lines: readonly string[]): Record<string, string> {
  return Object.fromEntries(lines.map(parseHeader));
}

function collect(value: string, previous: string[] = []): string[] {
  parseHeader(value);
  return [...previous, value];
}

/** `-H, --header "Name: value"`, repeatable: sent on every request of the run. */
export function headerOption(): Option {
  return new Option('-H, --header <header>', 'send this header on every request, as "Name: value" (repeatable; not Authorization: the key has --api-key)').argParser(collect);
}
