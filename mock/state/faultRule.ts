/** The statuses a fault rule may answer with: those a real deployment of the API gives. */
export const faultStatuses = [400, 401, 404, 408, 429, 500, 502, 503, 504] as const;

/** What a rule does instead of answering with a status: drop the connection, or hold the answer. */
export const faultActions = ['reset', 'stall'] as const;
export type FaultAction = (typeof faultActions)[number];

/** A fault rule as `POST /__mock/faults` takes it (and the control handle's `addFault`): see docs/frontend.md, "Faults on demand". */
export interface FaultRule {
  /** Only requests for this operation (`createPet`). */
  operationId?: string;
  /** Only requests with this method, in any case. */
  method?: string;
  /** Only requests for this path of the mock (`/v1/pets`), or under it when it ends with `*` (`/v1/pets/*`). */
  path?: string;
  /** Only requests with this API key. */
  key?: string;
  /** Answer with this status: an Error body from the catalogue, as `Prefer: code=` gives. */
  status?: (typeof faultStatuses)[number];
  /** Or: `reset` closes the connection with no answer; `stall` holds the answer (then gives `status`, or the real one). */
  action?: FaultAction;
  /** How long a stall holds the answer, in milliseconds on the mock's clock (advanceClock ends it); without it, until the rule is removed. */
  stallMs?: number;
  /** Answer this many requests, then stop. Default: every matching request until removed. */
  times?: number;
  /** Answer each matching request with this chance (0.1: one in ten), drawn from `seed`. */
  probability?: number;
  /** Seeds the draws of `probability`: the same seed fires on the same requests. Default 1. */
  seed?: number;
  /** Retry-After in seconds, with status 429 or 503. */
  retryAfter?: number;
}

/**
 * A fault rule as stored: which requests it takes (every field left out matches any) and what it
 * answers them with. The key is kept as its rate-limit bucket (a digest) and a redacted label,
 * never as itself, as the mock keeps every key.
 */
export interface FaultSpec {
  operationId?: string;
  /** Upper case. */
  method?: string;
  /** The mock's path (`/v1/pets`), exactly, or a prefix when it ends with `*`. */
  path?: string;
  /** The redacted key (`demo…(8)`), as the request log shows keys. */
  key?: string;
  /** The bucket of the key (`key:<digest>`), which admitted requests carry. */
  keyBucket?: string;
  status?: number;
  action?: FaultAction;
  /** How long a stall holds the answer, on the mock's clock; without it, until the rule goes. */
  stallMs?: number;
  /** How many requests it answers before it stops; without it, every one until it is removed. */
  times?: number;
  /** The chance each matching request is answered by it: 1 unless given. */
  probability?: number;
  /** Seeds the rule's own draws, so the same rule fires on the same requests every run. */
  seed?: number;
  /** Retry-After, in seconds, on a 429 or 503. */
  retryAfter?: number;
}

/** A rule as the control API lists it. */
export interface FaultView extends Omit<FaultSpec, 'keyBucket'> {
  id: string;
  /** How many requests it has answered. */
  fired: number;
  /** How many more it will answer, or null for no limit. */
  left: number | null;
  /** Stalls only: requests this mock holds for it right now. */
  holding?: number;
}

/** What a request offers a rule to match. */
export interface FaultTarget {
  operationId: string;
  method: string;
  /** As sent, query included: the path is cut from it only for a rule that names one. */
  url: string;
  /** The bucket of the admitted key; undefined for a request admitted without one. */
  keyBucket: string | undefined;
}

/** What a rule that fired answers with. */
export type FiredFault = Pick<FaultSpec, 'status' | 'action' | 'stallMs' | 'retryAfter'> & { id: string };

export function faultMatches(rule: FaultSpec, target: FaultTarget): boolean {
  if (rule.operationId !== undefined && rule.operationId !== target.operationId) return false;
  if (rule.method !== undefined && rule.method !== target.method) return false;
  if (rule.keyBucket !== undefined && rule.keyBucket !== target.keyBucket) return false;
  if (rule.path === undefined) return true;
  const path = target.url.split(/[?#]/)[0] ?? '/';
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

/**
 * Whether the rule may take a request whose key's bucket is not known yet (before its admission):
 * a rule scoped to a key then may. Exact once the bucket is known.
 */
export function faultMayMatch(rule: FaultSpec, target: FaultTarget): boolean {
  return faultMatches(rule, target.keyBucket === undefined && rule.keyBucket !== undefined ? { ...target, keyBucket: rule.keyBucket } : target);
}

/** The answer part of a rule that fired. */
export function firedFault(id: string, rule: FaultSpec): FiredFault {
  const fired: FiredFault = { id };
  if (rule.status !== undefined) fired.status = rule.status;
  if (rule.action !== undefined) fired.action = rule.action;
  if (rule.stallMs !== undefined) fired.stallMs = rule.stallMs;
  if (rule.retryAfter !== undefined) fired.retryAfter = rule.retryAfter;
  return fired;
}

/** How a stored rule is listed: its fields without the key's bucket, and its counts. */
export function faultView(id: string, rule: FaultSpec, fired: number, left: number | null, holding: number | undefined): FaultView {
  const { keyBucket: _bucket, ...shown } = rule;
  return { id, ...shown, fired, left, ...(holding === undefined ? {} : { holding }) };
}
