import { isKeyName, keyParameterInUrl } from '../../common/secretPlaces.ts';
import { redactKey } from '../state/keyRing.ts';

/**
 * A URL as the logs may keep it: the value of every key-like query parameter (`?api_key=…`,
 * `?access_token=…`) redacted as keys are everywhere else, the rest as sent. A client that puts its
 * key in the query (which the contract does not take, and the suite sends as a negative case) must
 * not have it written in clear to the access log, the request log or the client report.
 */
export function redactUrl(url: string): string {
  // Most queries are `limit=20`: parsed only when a key-like name, or a percent-encoded one, is there.
  if (!keyParameterInUrl.test(url) && !/[?&][^=&]*%/.test(url)) return url;
  const query = url.indexOf('?');
  return url.slice(0, query + 1) + url.slice(query + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals < 0) return pair;
    let name = pair.slice(0, equals);
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // an undecodable name is judged as sent
    }
    const value = pair.slice(equals + 1);
    return isKeyName(name) && value !== '' ? `${pair.slice(0, equals)}=${encodeURIComponent(redactKey(value))}` : pair;
  }).join('&');
}
