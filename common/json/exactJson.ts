// JSON read and written with every integer exact: an int64 such as a `categoryId` of
// 9007199254740993 is kept with its digits, where JSON.parse would round it to a double (RFC 8259,
// section 6 leaves the precision to the implementation; the contract types the field int64).
import { isInt64, parseLossless, type LosslessValue } from './losslessJson.ts';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A number literal whose value is not whole but whose nearest double is (`4503599627370495.3`,
 * `9007199254740993.5`): kept as written, so that it is refused as the fraction it is rather than
 * taken as the whole number JSON.parse makes of it.
 */
export class UnheldFraction {
  constructor(readonly text: string) {}
  toJSON(): number {
    return Number(this.text);
  }
}

/** A value parseJsonExact gives: JSON's, with BigInts for whole numbers past 2^53 - 1, and UnheldFractions. */
export type ExactValue = LosslessValue | UnheldFraction;

/**
 * Whether JSON text may hold a number literal JSON.parse does not read exactly: one with 16 or more
 * digits (a double holds every literal of 15 significant digits exactly enough to tell whole from
 * not, and every whole one exactly), or one with an exponent (`9.007199254740993e15`). A cheap scan,
 * so that the common body pays for no second parse; digits in strings may set it off, harmlessly.
 */
export function mayLoseDigits(text: string): boolean {
  return /[0-9][0-9.]{15}|[0-9][eE]/.test(text);
}

const literalParts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A JSON number literal's exact value: a whole number as a number when it is within 2^53 - 1, else
 * as a BigInt (whatever its spelling: `9007199254740993`, `9.007199254740993e15`, `9007199254740993.0`);
 * a whole number of more than 20 digits (past int64 by far) and a fraction a double tells from a
 * whole number as JSON.parse reads them; any other fraction as an UnheldFraction.
 */
export function exactNumber(literal: string): number | bigint | UnheldFraction {
  const double = Number(literal);
  const m = literalParts.exec(literal);
  if (!m) return double;
  const [, sign, whole, fraction, exponent] = m;
  if (fraction === undefined && exponent === undefined) return Number.isSafeInteger(double) ? double : BigInt(literal);
  const digits = `${whole}${fraction ?? ''}`.replace(/^0+/, '');
  if (digits === '') return double;
  const significant = digits.replace(/0+$/, '');
  const scale = Number(exponent ?? 0) - (fraction?.length ?? 0) + (digits.length - significant.length);
  if (scale < 0) return Number.isInteger(double) ? new UnheldFraction(literal) : double;
  if (significant.length + scale > 20) return double;
  const exact = BigInt(significant) * 10n ** BigInt(scale) * (sign === '-' ? -1n : 1n);
  return exact >= -MAX_SAFE && exact <= MAX_SAFE ? Number(exact) : exact;
}

/**
 * JSON text's value with every number exact (exactNumber). JSON.parse reads it (and names what is
 * wrong with malformed text, in its words); only text that mayLoseDigits is read a second time,
 * losslessly. Text nested deeper than the lossless reader goes keeps JSON.parse's value.
 */
export function parseJsonExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!mayLoseDigits(text)) return value;
  try {
    return parseLossless(text, { number: exactNumber as (literal: string) => LosslessValue });
  } catch {
    return value;
  }
}

/**
 * The value as an Ajv schema reads it (Ajv knows no BigInt): a BigInt within int64 becomes the
 * nearest double (at most 2^63, which an `int64: 'range'` validator takes), one past int64 becomes
 * ±2^64, which it refuses. An UnheldFraction stays an object, refused where a number or string is
 * wanted. Returns the value itself when nothing in it changes.
 */
export function ajvView(value: unknown): unknown {
  return holdsExactOnly(value) ? viewOf(value) : value;
}

/** Whether a value holds a BigInt or an UnheldFraction anywhere: walked without allocating, as most bodies hold neither. */
function holdsExactOnly(value: unknown): boolean {
  if (typeof value === 'bigint' || value instanceof UnheldFraction) return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsExactOnly(item)) return true;
    return false;
  }
  for (const key in value) if (Object.hasOwn(value, key) && holdsExactOnly((value as Record<string, unknown>)[key])) return true;
  return false;
}

function viewOf(value: unknown): unknown {
  if (typeof value === 'bigint') return isInt64(value) ? Number(value) : value > 0n ? 2 ** 64 : -(2 ** 64);
  if (value === null || typeof value !== 'object' || value instanceof UnheldFraction) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const seen = viewOf(item);
      if (seen !== item) (out ??= [...value])[index] = seen;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const seen = viewOf(item);
    if (seen !== item) Object.defineProperty((out ??= { ...value }), key, { value: seen, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}
