import { describe, expect, it } from 'vitest';
import { parseHttpDate } from './httpDate.ts';

describe('HTTP-date (RFC 9110, 5.6.7)', () => {
  const at = Date.UTC(1994, 10, 6, 8, 49, 37);

  it('reads the three forms, telling IMF-fixdate from the obsolete two', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toEqual({ at, form: 'imf' });
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toEqual({ at, form: 'rfc850' });
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toEqual({ at, form: 'asctime' });
  });

  it('refuses a day-name that is not the date\'s, a day the month does not have, and other formats', () => {
    expect(parseHttpDate('Mon, 06 Nov 1994 08:49:37 GMT')).toBeUndefined();
    expect(parseHttpDate('Fri, 31 Nov 1994 08:49:37 GMT')).toBeUndefined();
    for (const text of ['1994-11-06T08:49:37Z', 'Sun, 6 Nov 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 08:49:37 UTC', 'Sun, 06 Nov 1994 24:00:00 GMT', '0', '']) expect(parseHttpDate(text)).toBeUndefined();
  });

  it('takes a leap second', () => {
    expect(parseHttpDate('Sat, 31 Dec 2016 23:59:60 GMT')?.at).toBe(Date.UTC(2017, 0, 1));
  });
});
