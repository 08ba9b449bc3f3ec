import { isIP } from 'node:net';

/**
 * True when an address to listen on is reachable from this machine only: `localhost`, 127.0.0.0/8
 * and ::1 (in any spelling, and 127.x as IPv4-mapped IPv6). Anything else (0.0.0.0, ::, a LAN
 * address, a host name) may be reachable by others.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) !== 6) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::1, ::ffff:7f00:1).
  const canonical = new URL(`http://[${bare}]`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}
