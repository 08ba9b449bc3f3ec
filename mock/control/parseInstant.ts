// An ISO 8601 date (`2026-06-01`, midnight UTC) or date-time with a zone (`Z` or `+02:00`). A
// date-time without a zone is refused: JavaScript reads it in the local zone, so one test would
// freeze the mock at different instants on a laptop and in CI.
const isoInstant = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/i;

/**
 * Reads an instant the control API is given: Unix milliseconds (a whole number, or a string of
 * digits) or an ISO 8601 date or date-time with a zone. Undefined for anything else, including a
 * date that does not exist (`2026-02-30`).
 */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^-?\d{1,16}$/.test(value)) return Number(value);
  if (!isoInstant.test(value)) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March: the day it lands on must be the day written.
  const [, year, month, day] = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)!;
  const zone = /(?:Z|([+-])(\d{2}):(\d{2}))$/i.exec(value);
  const offsetMs = zone?.[1] ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000 : 0;
  const local = new Date(ms + offsetMs);
  return local.getUTCFullYear() === Number(year) && local.getUTCMonth() + 1 === Number(month) && local.getUTCDate() === Number(day) ? ms : undefined;
}
