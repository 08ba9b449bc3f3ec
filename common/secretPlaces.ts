// Where clients put keys besides `Authorization: Bearer`, and how what the toolkit writes hides
// them: a key is a secret in a query string, a cookie, an API-key header or a JSON body as much as
// in the header the contract names. Used where no list of known keys can be (a key never sent as a
// bearer token is unknown), so it goes by the names keys are sent under.

// The one list of the names keys go by: the mock's URL redaction (mock/pipeline/redactUrl.ts), its
// client report's misplaced keys (mock/clientReport/clientFacts.ts) and the proxy's and the suite's
// reports all read it, so a name added here is hidden, and recognised, everywhere at once.

/** Names a key goes by in query parameters, cookies and JSON fields (a regular expression's alternatives). */
const keyNames = 'api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|key|secret|password';
const keyName = new RegExp(`^(${keyNames})$`, 'i');
/** A URL or query string with a key-named parameter in it: the cheap test before parsing one. */
export const keyParameterInUrl = new RegExp(`[?&](${keyNames})=`, 'i');
/** Header fields other than Authorization that carry a key whole, as clients send one there. */
export const keyHeaderNames: readonly string[] = ['x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token'];
/** Header fields that carry a credential whole. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', ...keyHeaderNames]);

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
