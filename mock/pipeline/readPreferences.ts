// What a `Prefer` header asks of an API request (RFC 7240): a delay, or an answer the spec forces.
import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { serverErrorStatuses } from './forcedError.ts';
import { parsePrefer } from './parsePrefer.ts';

/** An answer `Prefer` forces: a status, an example by name, a generated body, a seed. */
export interface Forced {
  op: SpecOperation;
  /** What Preference-Applied says was applied. */
  applied: string;
  code: number | undefined;
  example: string | undefined;
  dynamic: boolean;
  seed: string | undefined;
}

export interface Preferences {
  /** `delay=` in milliseconds, when asked. */
  delayMs: number | undefined;
  /** The answer forced for an operation, when one is asked. */
  forced: Forced | undefined;
}

/** Reads `Prefer`, refusing (400 INVALID_PREFER_HEADER) what the mock cannot honour, with what it can. */
export function readPreferences(header: string, op: SpecOperation | undefined, { maxDelayMs }: { maxDelayMs: number }): Preferences {
  const preferError = (message: string) => new ApiError('INVALID_PREFER_HEADER', message);
  const preferences = parsePrefer(header);
  const applied = [...preferences.keys()].filter((k) => ['code', 'example', 'dynamic', 'seed', 'delay'].includes(k)).map((k) => `${k}=${preferences.get(k)}`);
  const delay = preferences.get('delay');
  if (delay !== undefined && (!/^\d+$/.test(delay) || Number(delay) > maxDelayMs)) {
    throw preferError(`Prefer: delay=${delay} is not a whole number of milliseconds from 0 to ${maxDelayMs}. Send for example delay=500.`);
  }
  const delayMs = delay === undefined ? undefined : Number(delay);
  const code = preferences.get('code');
  const example = preferences.get('example');
  const dynamic = preferences.get('dynamic');
  const seed = preferences.get('seed');
  if (!op || (code === undefined && example === undefined && dynamic === undefined)) return { delayMs, forced: undefined };
  const documented = Object.keys(op.operation.responses).filter((s) => /^\d{3}$/.test(s));
  if (code !== undefined && !documented.includes(code) && !(serverErrorStatuses as readonly number[]).includes(Number(code))) {
    throw preferError(`Prefer: code=${code} is not a status the spec documents for ${op.operationId}. Use one of ${documented.join(', ')}, or a server error beyond the contract: ${serverErrorStatuses.join(', ')}.`);
  }
  if (example !== undefined) {
    const known = examplesOf(op, code === undefined ? undefined : Number(code));
    if (!known.includes(example)) {
      throw preferError(`Prefer: example=${example} is not an example of ${op.operationId}${code ? ` ${code}` : ''}. ${known.length > 0 ? `Use one of ${known.join(', ')}.` : 'The spec names no examples there; use code= or dynamic=true.'}`);
    }
  }
  if (dynamic !== undefined && dynamic !== 'true' && dynamic !== 'false') throw preferError(`Prefer: dynamic=${dynamic} must be true or false.`);
  return { delayMs, forced: { op, applied: applied.join(', '), code: code === undefined ? undefined : Number(code), example, dynamic: dynamic === 'true', seed } };
}

function examplesOf(op: SpecOperation, status: number | undefined): string[] {
  const statuses = status !== undefined ? [String(status)] : Object.keys(op.operation.responses).filter((s) => s.startsWith('2'));
  return statuses.flatMap((s) => Object.keys(((op.operation.responses[s] as OpenAPIV3.ResponseObject | undefined)?.content?.['application/json']?.examples) ?? {}));
}
