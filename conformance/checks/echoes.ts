import { integerText, toJsonText } from '../json/losslessJson.ts';

/** Two JSON values read losslessly are the same: integers by their digits, so 2^53 + 1 is not 2^53. */
export function sameValue(a: unknown, b: unknown): boolean {
  const ia = integerText(a);
  const ib = integerText(b);
  if (ia !== undefined || ib !== undefined) return ia === ib;
  return a === b;
}

/** The fields of `sent` a created or fetched pet does not hold as sent. */
export function differingFields(sent: Record<string, unknown>, got: Record<string, unknown> | undefined): string[] {
  return Object.keys(sent).filter((field) => sent[field] !== undefined && !sameValue(sent[field], got?.[field]));
}

/** A value read losslessly, as JSON text with its integers exact: never throws on a BigInt, however deep. */
export const showValue = (value: unknown) => (value === undefined ? 'undefined' : toJsonText(value));
