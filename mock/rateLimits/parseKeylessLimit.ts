import { defaultKeylessLimits } from './anonymousBucket.ts';
import { MAX_KEY_LIMIT, type Limits } from './plans.ts';

const windows = { minute: 'perMinute', day: 'perDay' } as const;
const example = `${defaultKeylessLimits.perMinute}/minute,${defaultKeylessLimits.perDay}/day`;

/**
 * `--keyless-limit`: the limits requests without a valid key are counted at, per client address,
 * as `N/minute`, `N/day`, or both (`30/minute,500/day`); a window left out keeps the Free plan's,
 * as a profile's `keylessLimit` does.
 */
export function parseKeylessLimit(value: string): Partial<Limits> {
  const limits: Partial<Limits> = {};
  for (const part of value.split(',')) {
    const match = /^\s*(\d+)\s*\/\s*(minute|day)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is no keyless limit. Give N/minute, N/day or both, as ${example} (the default).`);
    const field = windows[match[2] as keyof typeof windows];
    if (limits[field] !== undefined) throw new Error(`"${value}" gives the ${match[2]}'s limit twice. Give each window once, as ${example}.`);
    const n = Number(match[1]);
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_KEY_LIMIT) throw new Error(`"${part.trim()}" is no keyless limit: a limit is a whole number from 1 to ${MAX_KEY_LIMIT}. Give for example ${example}.`);
    limits[field] = n;
  }
  return limits;
}
