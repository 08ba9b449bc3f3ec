// URI-reference (RFC 3986, 4.1), as Location and Link carry it: the five components of Appendix B,
// each held to its own characters.

const unreserved = "A-Za-z0-9\\-._~";
const subDelims = "!$&'()*+,;=";
const pct = '%[0-9A-Fa-f]{2}';
const pchar = `(?:[${unreserved}${subDelims}:@]|${pct})`;
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const path = new RegExp(`^(?:${pchar}|/)*$`);
const queryOrFragment = new RegExp(`^(?:${pchar}|[/?])*$`);
const userinfo = new RegExp(`^(?:[${unreserved}${subDelims}:]|${pct})*$`);
const regName = new RegExp(`^(?:[${unreserved}${subDelims}]|${pct})*$`);
const ipLiteral = /^\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+)\]$/;

/** RFC 3986, Appendix B: scheme, authority, path, query, fragment. */
const components = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

/** Why `text` is not a URI-reference, or undefined when it is one. */
export function uriReferenceFault(text: string): string | undefined {
  if (text === '') return undefined;
  const m = components.exec(text);
  if (!m) return 'it has no URI structure';
  const [, s, authority, p, query, fragment] = m;
  if (s !== undefined && !scheme.test(s)) return `its scheme ${JSON.stringify(s)} is not ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`;
  if (authority !== undefined) {
    const at = authority.lastIndexOf('@');
    const user = at >= 0 ? authority.slice(0, at) : undefined;
    const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
    if (user !== undefined && !userinfo.test(user)) return `its userinfo ${JSON.stringify(user)} holds characters RFC 3986 does not allow there`;
    const portAt = hostPort.startsWith('[') ? hostPort.indexOf(']:') + 1 : hostPort.lastIndexOf(':');
    const host = portAt > 0 ? hostPort.slice(0, portAt) : hostPort;
    const port = portAt > 0 ? hostPort.slice(portAt + 1) : '';
    if (!/^\d*$/.test(port)) return `its port ${JSON.stringify(port)} is not digits`;
    if (host.startsWith('[') ? !ipLiteral.test(host) : !regName.test(host)) return `its host ${JSON.stringify(host)} holds characters RFC 3986 does not allow there`;
  }
  if (!path.test(p!)) return `its path ${JSON.stringify(p)} holds characters RFC 3986 does not allow unencoded (${firstBad(p!, path)})`;
  if (query !== undefined && !queryOrFragment.test(query)) return `its query ${JSON.stringify(query)} holds characters RFC 3986 does not allow unencoded (${firstBad(query, queryOrFragment)})`;
  if (fragment !== undefined && !queryOrFragment.test(fragment)) return `its fragment ${JSON.stringify(fragment)} holds characters RFC 3986 does not allow unencoded`;
  return undefined;
}

/** The first character that breaks `pattern`, as the message names it. */
function firstBad(text: string, pattern: RegExp): string {
  for (let i = text.length; i > 0; i--) {
    if (pattern.test(text.slice(0, i))) return i < text.length ? JSON.stringify(text[i]) : 'a stray %';
  }
  return JSON.stringify(text[0]);
}
