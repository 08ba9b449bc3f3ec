// After the removal the contract announces, getPet may be gone.
import type { Exchange } from '../http/exchange.ts';
import { answeredAt } from './judgeRate.ts';

/** "to be removed on 5 December 2030": from the start of that UTC day (the earliest zone's start is earlier; see below). */
export const getPetRemoval = Date.UTC(2030, 11, 5);
/** 5 December begins 14 hours before it does in UTC (UTC+14): a deployment there removes it then. */
const earliestZoneMs = 14 * 3_600_000;

/**
 * Whether the exchange is getPet answered as removed: 410 (Gone, RFC 9110, 15.5.11) or 404, at or
 * after 5 December 2030 (the first instant of that day anywhere) by the answer's Date (else when it
 * was sent). The contract announces the removal and shows no answer for after it, so either is a
 * legal answer then, not a status undocumented for getPet, nor a known pet lost.
 */
export function isRemovedGetPet(exchange: Pick<Exchange, 'operationId' | 'response' | 'sentAt'>): boolean {
  const { status } = exchange.response;
  return exchange.operationId === 'getPet' && (status === 410 || status === 404) && answeredAt(exchange as Exchange) >= getPetRemoval - earliestZoneMs;
}
