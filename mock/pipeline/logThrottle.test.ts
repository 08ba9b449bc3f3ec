import { describe, expect, it } from 'vitest';
import { LogThrottle } from './logThrottle.ts';

describe('LogThrottle', () => {
  it('lets a name through once a window, and again once the window has passed', () => {
    let now = 0;
    const throttle = new LogThrottle(60_000, () => now);
    expect(throttle.fresh(['offset', 'page'])).toEqual(['offset', 'page']);
    now = 59_999;
    expect(throttle.fresh(['offset', 'cursor'])).toEqual(['cursor']);
    now = 60_000;
    expect(throttle.fresh(['offset', 'cursor'])).toEqual(['offset']);
  });

  it('forgets every name rather than hold more than its bound', () => {
    const throttle = new LogThrottle(60_000, () => 0, 3);
    expect(throttle.fresh(['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(throttle.fresh(['d'])).toEqual(['d']);
    expect(throttle.fresh(['a'])).toEqual(['a']);
  });
});
