// Where clients put keys besides `Authorization: Bearer`, and how what the toolkit writes hides
// them: a key is a secret in a query string, a cookie, an API-key header or a JSON body as much as
// in the header the contract names. Used where no list of known keys can be (a key never sent as a
// bearer token is unknown), so it goes by the names keys are sent under.

/** Names a key goes by in query parameters, cookies and JSON fields. */
const keyName = /^(api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|key|secret|password)$/i;
/** Header fields that carry a credential whole. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'x-auth-token', 'x-access-token']);

/** What replaces a secret: its length only, as the mock's key redaction gives it. */
export const hidden = (secret: string) => `…(${secret.length})`;

/** Whether a query parameter, cookie or JSON field of this name carries a key. */
export const isKeyName = (name: string) => keyName.test(name);

/**
 * The text with the value of every key-named query parameter (`?api_key=…`, `&access_token=…`),
 * cookie (`api_key=…;`) and JSON field (`"apiKey": "…"`) hidden; the rest as it was.
 */
export function hideKeyValues(text: string): string {
  if (!/key|token|secret|password/i.test(text)) return text;
  return text
    .replace(/([?&;,\s]|^)([A-Za-z_-]+)=([^&#;,\s"]+)/g, (all, before: string, name: string, value: string) => (isKeyName(name) ? `${before}${name}=${encodeURIComponent(hidden(value))}` : all))
    .replace(/"([A-Za-z_-]+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (all, name: string, colon: string, value: string) => (isKeyName(name) && value !== '' ? `"${name}"${colon}"${hidden(value)}"` : all));
}

/**
 * A request header's value as what the toolkit writes may hold it: a credential header's value
 * hidden after its scheme (`Token …(16)`), a cookie's key-named values hidden.
 */
export function hideHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (!credentialHeaders.has(lower)) return value;
  if (lower === 'cookie') return hideKeyValues(value);
  const scheme = /^(\S+)\s+(\S.*)$/.exec(value);
  return scheme && lower.endsWith('authorization') ? `${scheme[1]} ${hidden(scheme[2]!)}` : hidden(value);
}
