/** Reads the contract's rate-limit headers. */
export interface RateHeaders {
  limit?: number;
  remaining?: number;
  /** Unix seconds. */
  reset?: number;
}

const integer = (value: string | undefined) => (value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined);

export function readRateHeaders(headers: Record<string, string>): RateHeaders {
  return {
    limit: integer(headers['x-ratelimit-limit']),
    remaining: integer(headers['x-ratelimit-remaining']),
    reset: integer(headers['x-ratelimit-reset']),
  };
}

/**
 * Retry-After as milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110, 10.2.3).
 * Undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (/[a-z]/i.test(trimmed) && !Number.isNaN(date)) return Math.max(0, date - now);
  return undefined;
}
