import { isIP } from 'node:net';

/** Which proxies in front of the mock to believe about the client's address (proxy-addr's trust: a number of hops, or addresses and ranges). */
export type TrustProxy = number | string[];

const namedRanges = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Reads `--trust-proxy`: a whole number of proxy hops (1 for one nginx in front), or a
 * comma-separated list of proxy addresses, CIDR ranges (10.0.0.0/8) or the names loopback,
 * linklocal and uniquelocal. Trusting every sender is not offered: any client could then choose
 * its own address, and so its own anonymous rate-limit bucket.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 100) return hops;
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const bad = entries.find((entry) => !namedRanges.includes(entry) && !isAddressOrRange(entry));
  if (entries.length === 0 || bad !== undefined || /^\d+$/.test(text)) {
    throw new Error(`${bad === undefined ? JSON.stringify(value) : `${JSON.stringify(bad)} in ${JSON.stringify(value)}`} is neither a number of proxy hops from 1 to 100 nor a list of proxy addresses. Give for example 1, or 10.0.0.0/8,127.0.0.1.`);
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
