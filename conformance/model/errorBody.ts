// The contract's Error body: "Error responses carry an Error body (`code`, `message`, `status`),
// with `status` equal to the HTTP status code". Read from a body already parsed (Exchange.json,
// parseBody), so no caller parses an answer twice.

import { parseBody } from '../http/exchange.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The `code` of a parsed body, when it is a JSON object with a string `code`. */
export function errorCodeOf(body: unknown): string | undefined {
  return isObject(body) && typeof body.code === 'string' ? body.code : undefined;
}

/** Whether a parsed body is the Error the contract pins for an answer of `status`: `code` and `message` strings, `status` the HTTP status. */
export function isErrorBody(body: unknown, status: number): boolean {
  return errorCodeOf(body) !== undefined && typeof (body as Record<string, unknown>).message === 'string' && (body as Record<string, unknown>).status === status;
}

/** The `code` of an answer's Error body, read from its text (an answer no Exchange holds yet: a drift probe's). */
export function errorCodeOfText(body: string): string | undefined {
  return errorCodeOf(parseBody(body).json);
}
