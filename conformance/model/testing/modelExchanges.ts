// Hand-built exchanges for the model's unit tests, as Schemathesis tests its checks: no server.
// `ex` records one request and its answer the way the client records them (the key redacted to
// `$PETS_API_KEY`, the body's bytes and every header line kept), with seq numbers in order.
import { bundledSpec } from '../../../spec/bundledSpec.ts';
import { SpecValidators } from '../../specValidators.ts';
import { parseBody, type Bucket, type Exchange, type Intent } from '../../http/exchange.ts';
import { responseOf } from '../../http/transport.ts';
import type { Judgement } from '../judgement.ts';
import type { KeyPlans } from '../contractPlans.ts';
import { emptyState, type ModelState } from '../modelState.ts';
import { viewRequest, type RequestView } from '../requestView.ts';
import { rules, type RuleId } from '../rules.ts';
import { runModel, type ModelOptions } from '../runModel.ts';

/** When the first request of a test leaves: Mon, 01 Jun 2026 12:00:00 GMT. */
export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
/** T0 in Unix seconds. */
export const T0s = T0 / 1000;
/** The window's reset when a test does not say: a minute after T0. */
export const RESET = T0s + 60;

/** `key` and `key2` are the run's keys; `none` sends no Authorization; a string is the header's value as sent. */
export type AuthSpec = 'key' | 'key2' | 'none' | (string & {});

export const authorizationOf: Record<'key' | 'key2', string> = { key: 'Bearer $PETS_API_KEY', key2: 'Bearer $PETS_API_KEY_2' };

export interface ExParts {
  method?: string;
  /** Relative to the base URL, with the query. Default `/pets`. */
  path?: string;
  auth?: AuthSpec;
  /** Other request headers, as sent. */
  requestHeaders?: Record<string, string>;
  /** The request body: a string as is, anything else as JSON. */
  requestBody?: string | object;
  status: number;
  /** Response headers: an array is one line per value. `content-type: application/json` unless given (or the body is empty). */
  headers?: Record<string, string | readonly string[]>;
  /** The response body: a string or bytes as they are, anything else as JSON. */
  body?: string | Uint8Array | object;
  truncated?: boolean;
  burst?: number;
  equivalence?: string;
  case?: string;
  intent?: Intent;
  /** When the request left, in ms. Default T0. */
  sentAt?: number;
}

let lastSeq = 0;

/** Starts the seq numbers again at 1 (call it before each test, so messages name known seqs). */
export function resetSeq(): void {
  lastSeq = 0;
}

/** One exchange, with the next seq number. */
export function ex(parts: ExParts): Exchange {
  const method = parts.method ?? 'GET';
  const path = parts.path ?? '/pets';
  const auth = parts.auth ?? 'key';
  const requestHeaders: Record<string, string> = { accept: 'application/json', ...parts.requestHeaders };
  const authorization = auth === 'key' ? authorizationOf.key : auth === 'key2' ? authorizationOf.key2 : auth === 'none' ? undefined : auth;
  if (authorization !== undefined) requestHeaders.Authorization = authorization;
  const requestBody = parts.requestBody === undefined ? undefined : typeof parts.requestBody === 'string' ? parts.requestBody : JSON.stringify(parts.requestBody);
  if (requestBody !== undefined && !Object.keys(requestHeaders).some((h) => h.toLowerCase() === 'content-type')) requestHeaders['content-type'] = 'application/json';

  const body = parts.body === undefined ? '' : typeof parts.body === 'string' || parts.body instanceof Uint8Array ? parts.body : JSON.stringify(parts.body);
  const headers: Record<string, string | readonly string[]> = { ...parts.headers };
  if (body.length > 0 && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const response = responseOf(parts.status, headers, body, parts.truncated ?? false);

  const view = viewRequest({ path, request: { method, url: '', headers: requestHeaders } });
  const bucket: Bucket = view.credential.kind === 'key' ? (view.credential.key === 'key2' ? 'key2' : 'key') : 'anonymous';
  return {
    seq: ++lastSeq,
    checkId: 'test',
    operationId: view.operation ?? 'unlisted',
    intent: parts.intent ?? (view.credential.kind === 'key' ? 'valid' : 'unauthenticated'),
    ...(parts.case !== undefined ? { case: parts.case } : {}),
    ...(parts.burst !== undefined ? { burst: parts.burst } : {}),
    ...(parts.equivalence !== undefined ? { equivalence: parts.equivalence } : {}),
    path,
    bucket,
    sentAt: parts.sentAt ?? T0,
    request: { method, url: `http://api.test/v1${path}`, headers: requestHeaders, ...(requestBody !== undefined ? { body: requestBody } : {}) },
    response: { ...response, ...parseBody(response.body), durationMs: 1 },
    retries: 0,
  };
}

/** The three rate-limit headers of an answer that says `remaining` are left. */
export function rate(remaining: number, options: { limit?: number; reset?: number } = {}): Record<string, string> {
  return { 'x-ratelimit-limit': String(options.limit ?? 300), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(options.reset ?? RESET) };
}

/** An Error body for `status`. */
export const errorBody = (status: number, code = 'ERROR') => ({ code, message: 'The request failed.', status });

/**
 * A Pet as JSON text, its id and categoryId written as given: digits past 2^53 stay exact (a
 * number would be rounded by JSON.stringify). `extra` fields are appended.
 */
export function petJson(pet: { id: string | number | bigint; name?: string; categoryId?: string | number; status?: string; extra?: Record<string, unknown> }): string {
  const fields = [`"id":${pet.id}`];
  if (pet.name !== undefined) fields.push(`"name":${JSON.stringify(pet.name)}`);
  if (pet.categoryId !== undefined) fields.push(`"categoryId":${pet.categoryId}`);
  if (pet.status !== undefined) fields.push(`"status":${JSON.stringify(pet.status)}`);
  for (const [k, v] of Object.entries(pet.extra ?? {})) fields.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${fields.join(',')}}`;
}

/** A list body of pets as JSON text. */
export const listJson = (pets: Parameters<typeof petJson>[0][]) => `[${pets.map(petJson).join(',')}]`;

/** The request as the model reads it. */
export const viewOf = (exchange: Exchange): RequestView => viewRequest(exchange);

/** A fresh state, for judging one answer alone. */
export const freshState = (): ModelState => emptyState();

/** The model's options for a test: the contract as the package bundles it, the key the run's own unless told. */
export const modelOptions = (options: { sharedKey?: boolean; plans?: KeyPlans } = {}): ModelOptions => ({ sharedKey: options.sharedKey ?? false, validators: new SpecValidators(bundledSpec()), ...(options.plans ? { plans: options.plans } : {}) });

/** Every judgement of a run of these exchanges, in order. */
export function judgementsOf(exchanges: readonly Exchange[], options: { sharedKey?: boolean; plans?: KeyPlans } = {}): readonly Judgement[] {
  return runModel(exchanges, modelOptions(options)).judgements;
}

/** The judgements of one rule. */
export const ofRule = (judgements: readonly Judgement[], rule: RuleId) => judgements.filter((j) => j.rule === rule);

/** The outcomes of one rule's judgements, in order: [] when the rule did not apply. */
export const outcomesOf = (judgements: readonly Judgement[], rule: RuleId) => ofRule(judgements, rule).map((j) => j.outcome);

/** The messages of one rule's failures and warnings. */
export const messagesOf = (judgements: readonly Judgement[], rule: RuleId) => ofRule(judgements, rule).filter((j) => j.outcome !== 'held').map((j) => j.message!);

/**
 * The rules of an answer's form (its status, Content-Type, schema, rate-limit headers), which
 * judgeStatusCodes, judgeBodies and judgeRateHeaders have tests of their own for: the exchanges built
 * here for the other rules leave out what those need (the rate-limit headers), so a test that holds
 * "no failure" holds it of the other rules.
 */
const formRules = new Set(rules.filter((r) => ['status-codes', 'content-type', 'response-schema', 'rate-limit-headers', 'valid-creates'].includes(r.checkId)).map((r) => r.id));

/** The failures among judgements, of one rule when given (of every rule but the form's when not). */
export const failuresOf = (judgements: readonly Judgement[], rule?: RuleId) => judgements.filter((j) => j.outcome === 'failure' && (rule === undefined ? !formRules.has(j.rule) : j.rule === rule));

/** The rules that were held on the given exchange. */
export const heldOn = (judgements: readonly Judgement[], exchange: Exchange) => judgements.filter((j) => j.outcome === 'held' && j.exchange === exchange).map((j) => j.rule);

/** `rule: message` for every failure, for readable assertion output. */
export const failureLines = (judgements: readonly Judgement[]) => failuresOf(judgements).map((j) => `${j.rule}: ${j.message}`);
