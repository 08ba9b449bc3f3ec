import { describe, expect, it } from 'vitest';
import { responseOf } from '../http/transport.ts';
import { keylessWindow } from './keylessWindow.ts';

const now = Date.UTC(2026, 5, 1, 12, 30, 30);
const keyless = (headers: Record<string, string>) => responseOf(401, { 'content-type': 'application/json', ...headers }, '{"code":"UNAUTHORIZED","message":"no","status":401}');

describe('the keyless limit a 401 shows', () => {
  it('is per minute when its X-RateLimit-Reset is within two minutes, per day when later', () => {
    expect(keylessWindow(keyless({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': String(Math.ceil(now / 1000) + 30) }), now)?.value).toEqual({ perMinute: 60 });
    expect(keylessWindow(keyless({ 'x-ratelimit-limit': '500', 'x-ratelimit-reset': String(Date.UTC(2026, 5, 2) / 1000) }), now)?.value).toEqual({ perDay: 500 });
  });

  it('reads the reset against the answer\'s Date when it has one', () => {
    const date = new Date(now + 3_600_000).toUTCString();
    expect(keylessWindow(keyless({ 'x-ratelimit-limit': '30', 'x-ratelimit-reset': String(Math.ceil((now + 3_600_000) / 1000) + 45), date }), now)?.value).toEqual({ perMinute: 30 });
  });

  it('is taken as per minute without a reset, and not read without a whole-number limit', () => {
    expect(keylessWindow(keyless({ 'x-ratelimit-limit': '25' }), now)).toEqual({ value: { perMinute: 25 }, shown: expect.stringMatching(/no X-RateLimit-Reset/) });
    expect(keylessWindow(keyless({ 'x-ratelimit-limit': 'many' }), now)).toBeUndefined();
    expect(keylessWindow(keyless({}), now)).toBeUndefined();
  });
});
