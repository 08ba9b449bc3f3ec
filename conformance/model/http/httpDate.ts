// HTTP-date (RFC 9110, 5.6.7): a sender generates IMF-fixdate; a recipient also reads the two
// obsolete forms (rfc850-date, asctime-date).

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface HttpDate {
  /** The instant, in ms since the epoch. */
  at: number;
  /** `imf` is the form a sender must generate; the others a recipient reads. */
  form: 'imf' | 'rfc850' | 'asctime';
}

const imf = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const rfc850 = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const asctime = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/** The instant, when the fields name a real day and time (second 60 allowed, 5.6.7) and the day-name is that day's. */
function instant(dayName: number, day: number, month: number, year: number, hour: number, minute: number, second: number): number | undefined {
  if (hour > 23 || minute > 59 || second > 60 || day < 1) return undefined;
  const at = Date.UTC(year, month, day, hour, minute, Math.min(second, 59)) + (second === 60 ? 1000 : 0);
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day || date.getUTCDay() !== dayName) return undefined;
  return at;
}

/** Reads an HTTP-date in any of its three forms; undefined when the text is none of them, or names no real day. */
export function parseHttpDate(text: string): HttpDate | undefined {
  let m = imf.exec(text);
  if (m) {
    const at = instant(days.indexOf(m[1]!), Number(m[2]), months.indexOf(m[3]!), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7]));
    return at === undefined ? undefined : { at, form: 'imf' };
  }
  m = rfc850.exec(text);
  if (m) {
    // RFC 9110, 5.6.7: a two-digit year more than 50 years ahead is the past century's.
    let year = 2000 + Number(m[4]);
    if (year > new Date().getUTCFullYear() + 50) year -= 100;
    const at = instant(longDays.indexOf(m[1]!), Number(m[2]), months.indexOf(m[3]!), year, Number(m[5]), Number(m[6]), Number(m[7]));
    return at === undefined ? undefined : { at, form: 'rfc850' };
  }
  m = asctime.exec(text);
  if (m) {
    const at = instant(days.indexOf(m[1]!), Number(m[3]!.trim()), months.indexOf(m[2]!), Number(m[7]), Number(m[4]), Number(m[5]), Number(m[6]));
    return at === undefined ? undefined : { at, form: 'asctime' };
  }
  return undefined;
}

/** An instant as IMF-fixdate, for messages. */
export const imfFixdate = (at: number): string => new Date(at).toUTCString();
