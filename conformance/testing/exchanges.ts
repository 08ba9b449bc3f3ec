// Hand-built exchanges for the checks' unit tests, as Schemathesis tests its checks: no server.
import { testSpec } from '../../mock/testing.ts';
import { judgeCheck, Outcomes, type Check, type JudgeInput, type OperationResult } from '../check.ts';
import { parseBody, type Exchange, type Intent } from '../http/exchange.ts';
import { responseOf } from '../http/transport.ts';
import { SpecValidators } from '../specValidators.ts';
import { runModel } from '../model/runModel.ts';

const sentAt = Date.UTC(2026, 5, 1, 12, 30, 30);
const resetS = Math.floor(sentAt / 1000) + 30;

/** The rate-limit headers of a well-behaved answer with `remaining` left. */
export const rateHeaders = (remaining = 99, limit = 300) => ({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetS) });

let seq = 0;

export function exchange(parts: {
  method?: string;
  path?: string;
  operationId?: string;
  intent?: Intent;
  bucket?: 'key' | 'key2' | 'anonymous';
  status: number;
  headers?: Record<string, string>;
  body?: string;
  case?: string;
}): Exchange {
  const path = parts.path ?? '/pets';
  const body = parts.body ?? '';
  return {
    seq: ++seq,
    checkId: 'test',
    operationId: parts.operationId ?? 'listPets',
    intent: parts.intent ?? 'valid',
    ...(parts.case ? { case: parts.case } : {}),
    path,
    bucket: parts.bucket ?? 'key',
    sentAt,
    request: { method: parts.method ?? 'GET', url: `http://api.test/v1${path}`, headers: {} },
    response: { ...responseOf(parts.status, { 'content-type': 'application/json', ...rateHeaders(), ...parts.headers }, body), ...parseBody(body), durationMs: 1 },
    retries: 0,
  };
}

/**
 * Judges a check over the given exchanges, as a run judges it (its own exchanges, or every one for
 * a passive check), and returns its verdict per operation. `knownPets`: what the preflight listed.
 */
export async function judge(check: Check, exchanges: Exchange[], facts: Partial<Pick<JudgeInput, 'knownPets' | 'probeMaxRequests' | 'unanswered'>> = {}): Promise<Record<string, OperationResult>> {
  const validators = new SpecValidators(await testSpec());
  const outcomes = new Outcomes(check.operations);
  judgeCheck(check, { validators, knownPets: facts.knownPets ?? [], probeMaxRequests: facts.probeMaxRequests ?? 10, exchanges, unanswered: facts.unanswered ?? [], model: runModel(exchanges, { sharedKey: false, validators }), connections: [] }, outcomes);
  return Object.fromEntries(outcomes.results().map((r) => [r.operationId, r]));
}
