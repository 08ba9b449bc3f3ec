import { describe, expect, it } from 'vitest';
import { ManualClock } from '../state/clock.ts';
import { dateFieldOf, imfFixdate } from './dateField.ts';

describe('dateFieldOf', () => {
  it('gives the IMF-fixdate of the clock\'s whole second: the same text within it, the next second\'s once the clock moves on', () => {
    const clock = new ManualClock(Date.UTC(2030, 11, 5, 12, 30, 0, 999));
    const date = dateFieldOf(clock);
    const first = date();
    expect(first).toBe('Thu, 05 Dec 2030 12:30:00 GMT');
    clock.advance(0);
    expect(date()).toBe(first);
    clock.advance(1);
    expect(date()).toBe('Thu, 05 Dec 2030 12:30:01 GMT');
  });

  it('writes IMF-fixdate as RFC 9110 (5.6.7) shows it', () => {
    expect(imfFixdate(Date.UTC(1994, 10, 6, 8, 49, 37))).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
  });
});
