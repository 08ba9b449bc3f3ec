import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { keyDigest } from '../state/keyEntry.ts';
import { redactKey } from '../state/keyRing.ts';
import { faultActions, faultStatuses, type FaultAction, type FaultSpec } from '../state/faultRule.ts';

/** The longest stall: an hour on the mock's clock (advance the clock to end one sooner). */
export const MAX_STALL_MS = 3_600_000;
/** The most requests one rule may be told to answer. */
export const MAX_FAULT_TIMES = 1_000_000;
/** The longest Retry-After a rule may give: a day. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/** The longest path a rule may name, as the request log keeps URLs. */
const MAX_PATH = 2048;
/** The seed of a rule with a probability that names none: the same draws every run. */
export const DEFAULT_FAULT_SEED = 1;

const fields = ['operationId', 'method', 'path', 'key', 'status', 'action', 'stallMs', 'times', 'probability', 'seed', 'retryAfter'] as const;

/** A value as a message shows it: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

const refuse = (problem: string, fix: string) => new ApiError('INVALID_CONTROL_REQUEST', `Cannot add the fault rule: ${problem}. ${fix}; nothing was added.`);

function wholeNumber(body: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw refuse(`${name} ${shown(value)} is not a whole number from ${min} to ${max}`, `Give ${name} in that range`);
  }
  return value;
}

/**
 * Checks a `POST /__mock/faults` body and turns it into the rule to store: every field is checked,
 * and a bad one is refused naming the field and the value sent, with what to send instead.
 */
export function parseFaultRule(body: unknown, spec: LoadedSpec, apiPrefix: string): FaultSpec {
  if (body === undefined) throw refuse('it has no body', 'Send a JSON object such as {"operationId": "createPet", "status": 503, "times": 3}, with "Content-Type: application/json"');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refuse(`the body is ${shown(body)}, not a JSON object`, 'Send an object such as {"operationId": "createPet", "status": 503, "times": 3}');
  }
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).find((name) => !(fields as readonly string[]).includes(name));
  if (unknown !== undefined) throw refuse(`it has no field ${shown(unknown)}`, `Use only ${fields.join(', ')}`);
  const rule: FaultSpec = {};

  const operations = new Map(spec.operations.map((op) => [op.operationId, op]));
  const { operationId, method, path, key, action, probability } = input;
  if (operationId !== undefined) {
    if (typeof operationId !== 'string' || !operations.has(operationId)) throw refuse(`operationId ${shown(operationId)} is not an operation of the API`, `Use one of ${[...operations.keys()].join(', ')}`);
    rule.operationId = operationId;
  }
  if (method !== undefined) {
    const methods = [...new Set(spec.operations.map((op) => op.method.toUpperCase()))];
    if (methods.includes('GET')) methods.push('HEAD');
    if (typeof method !== 'string' || !methods.includes(method.toUpperCase())) throw refuse(`method ${shown(method)} is not one the API serves`, `Use one of ${methods.join(', ')}`);
    rule.method = method.toUpperCase();
    const op = rule.operationId === undefined ? undefined : operations.get(rule.operationId)!;
    const opMethod = op?.method.toUpperCase();
    if (op && rule.method !== opMethod && !(rule.method === 'HEAD' && opMethod === 'GET')) {
      throw refuse(`method ${shown(method)} never matches operationId ${shown(operationId)}, which is ${opMethod} ${apiPrefix}${op.path}`, 'Leave out method, or give the operation\'s own');
    }
  }
  if (path !== undefined) {
    const bad = typeof path !== 'string' || path.length > MAX_PATH || !path.startsWith('/') || path.slice(0, -1).includes('*');
    if (bad) throw refuse(`path ${shown(path)} is not a path of at most ${MAX_PATH} characters starting with /, with * only at its end`, `Give a path such as ${apiPrefix}/pets, or a prefix such as ${apiPrefix}/pets/*`);
    const under = path === apiPrefix || path.startsWith(`${apiPrefix}/`) || (path.endsWith('*') && `${apiPrefix}/`.startsWith(path.slice(0, -1)));
    if (!under) {
      throw refuse(`path ${shown(path)} is not under ${apiPrefix}, where the API is: a rule matches the mock's own paths, as the request log shows them`, `Give a path such as ${apiPrefix}${path.startsWith(apiPrefix) ? '/pets' : path}`);
    }
    rule.path = path;
  }
  if (key !== undefined) {
    if (typeof key !== 'string' || key.length < 1 || key.length > 256 || !/^[A-Za-z0-9\-._~+/]+=*$/.test(key)) {
      throw refuse(`key ${typeof key === 'string' ? redactKey(key) : shown(key)} is not an API key (1 to 256 characters of a bearer token)`, 'Give the key as the client sends it, e.g. "demo-pro"');
    }
    // The bucket is what an admitted request carries: matching it costs no digest per request.
    rule.key = redactKey(key);
    rule.keyBucket = `key:${keyDigest(key)}`;
  }

  const status = input.status;
  if (status !== undefined) {
    if (!(faultStatuses as readonly unknown[]).includes(status)) throw refuse(`status ${shown(status)} is not one a fault answers with`, `Use one of ${faultStatuses.join(', ')}`);
    rule.status = status as number;
  }
  if (action !== undefined) {
    if (!(faultActions as readonly unknown[]).includes(action)) throw refuse(`action ${shown(action)} is not one the mock knows`, 'Use "reset" (close the connection without an answer) or "stall" (hold the answer)');
    rule.action = action as FaultAction;
  }
  if (rule.status === undefined && rule.action === undefined) throw refuse('it says neither what to answer (status) nor what to do (action)', 'Give a status such as 503, or an action: "reset" or "stall"');
  if (rule.action === 'reset' && rule.status !== undefined) throw refuse(`action "reset" gives no answer, so status ${rule.status} would never be sent`, 'Leave out one of them');
  const stallMs = wholeNumber(input, 'stallMs', 1, MAX_STALL_MS);
  if (stallMs !== undefined) {
    if (rule.action !== 'stall') throw refuse(`stallMs ${stallMs} is only for action "stall"`, 'Add "action": "stall", or leave out stallMs');
    rule.stallMs = stallMs;
  }

  const times = wholeNumber(input, 'times', 1, MAX_FAULT_TIMES);
  if (times !== undefined) rule.times = times;
  if (probability !== undefined) {
    if (typeof probability !== 'number' || !(probability > 0 && probability <= 1)) throw refuse(`probability ${shown(probability)} is not a number above 0 and at most 1`, 'Give for example 0.1 for one request in ten');
    rule.probability = probability;
  }
  const seed = wholeNumber(input, 'seed', 0, 4_294_967_295);
  if (seed !== undefined && rule.probability === undefined) throw refuse(`seed ${seed} only seeds the draws of a probability, and none is given`, 'Add a probability, or leave out seed');
  if (rule.probability !== undefined) rule.seed = seed ?? DEFAULT_FAULT_SEED;
  const retryAfter = wholeNumber(input, 'retryAfter', 1, MAX_RETRY_AFTER_SECONDS);
  if (retryAfter !== undefined) {
    if (rule.status !== 429 && rule.status !== 503) throw refuse(`retryAfter ${retryAfter} goes with a 429 or a 503 (RFC 9110, 10.2.3), and the status is ${rule.status ?? 'not given'}`, 'Give status 429 or 503, or leave out retryAfter');
    rule.retryAfter = retryAfter;
  }
  return rule;
}
