// A browser sends `Origin: http://localhost:5173`: scheme, host and port only, lower case, no
// default port, no slash. CORS compares that text with the allowed ones exactly, so a value written
// any other way (`localhost:5173`, `http://localhost:5173/`) is accepted and then never matches:
// every call from the app fails with a CORS error in the browser and nothing in the mock's log.
// Such a value stops the start instead, with the value to give.

const hostName = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/;

/** What is wrong with one allowed origin, with the fix; undefined when it is an origin (or `*`). */
function problemWith(value: string): string | undefined {
  if (value === '*') return undefined;
  const shown = JSON.stringify(value);
  if (value.trim() === '') return `${shown} is empty. Give an origin such as "http://localhost:5173", or * for any.`;
  if (/[,\s]/.test(value.trim())) return `${shown} holds several values. Give each origin as a value of its own: ${value.trim().split(/[,\s]+/).filter(Boolean).map((part) => JSON.stringify(fixed(part) ?? part)).join(' ')}.`;
  if (value.includes('*')) return `${shown} is a pattern, and only whole origins are matched. List each origin, or give * for any.`;
  if (value === 'null') return `${shown} is the origin of file:// pages and sandboxed frames, which cannot be allowed by name. Serve the page over http://, or give * for any.`;
  const url = parse(value);
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && hostName.test(url.hostname) && url.username === '' && url.password === '' && url.origin === value) return undefined;
  const fix = fixed(value);
  const why = !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? 'it has no scheme'
    : url && url.protocol !== 'http:' && url.protocol !== 'https:' ? `its scheme is ${url.protocol.slice(0, -1)}, and a page's origin is http or https`
      : 'a browser sends an origin as a scheme (http or https), a host and an optional port, with no path, no default port and in lower case';
  return `${shown} is not an origin: ${why}, so it would never match.${fix ? ` Give ${JSON.stringify(fix)}.` : ' Give an origin such as "http://localhost:5173".'}`;
}

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The origin the value most likely means: `localhost:5173` is `http://localhost:5173`. */
function fixed(value: string): string | undefined {
  const url = parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !hostName.test(url.hostname)) return undefined;
  // Only a host as written: the URL parser reads `5173` as the address 0.0.22.101.
  return value.toLowerCase().includes(url.hostname) ? url.origin : undefined;
}

/**
 * Refuses CORS origins that are not origins (scheme http or https, a host, an optional port, no
 * path), naming each bad value and the one to give instead (`localhost:5173`:
 * `http://localhost:5173`); `*` allows any. `name` is how the caller gave them: `--cors-origin`,
 * `corsOrigins`.
 */
export function checkCorsOrigins(origins: readonly string[], name: string): void {
  const problems = origins.map(problemWith).filter((problem) => problem !== undefined);
  if (problems.length > 0) throw new Error(`${name}: ${problems.join(' ')}`);
}
