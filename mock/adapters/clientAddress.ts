import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../server/parseTrustProxy.ts';
import { socketAddress } from './socketAddress.ts';

/**
 * The client's address, the one reading of it every Node host makes (its anonymous rate-limit
 * bucket): the socket's, or X-Forwarded-For's as far as the trusted proxies go (proxy-addr, RFC
 * 7239's model of hops).
 */
export function clientAddressOf(trust: TrustProxy | undefined): (req: IncomingMessage) => string {
  if (trust === undefined) return socketAddress;
  const trusted = typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : proxyAddr.compile(trust);
  return (req) => proxyAddr(req, trusted);
}
