import { describe, expect, it } from 'vitest';
import { parseInstant } from './parseInstant.ts';

describe('parseInstant', () => {
  it.each([
    [1780317045000, 1780317045000],
    ['1780317045000', 1780317045000],
    ['2026-06-01T12:30:45Z', Date.UTC(2026, 5, 1, 12, 30, 45)],
    ['2026-06-01T12:30:45.250z', Date.UTC(2026, 5, 1, 12, 30, 45, 250)],
    ['2026-06-01T08:30-04:00', Date.UTC(2026, 5, 1, 12, 30)],
    ['2026-06-01', Date.UTC(2026, 5, 1)],
    ['2028-02-29', Date.UTC(2028, 1, 29)],
  ])('reads %j', (value, ms) => {
    expect(parseInstant(value)).toBe(ms);
  });

  it.each([['2026-06-01T12:30:45'], ['2026-02-30'], ['2027-02-29'], ['2026-13-01'], ['June 1, 2026'], [''], [1.5], [Number.NaN], [true], [null], [{}]])('refuses %j', (value) => {
    expect(parseInstant(value)).toBeUndefined();
  });
});
