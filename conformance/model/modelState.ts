// What a client of the contract can know during a run: every pet it created or read, by id, with
// its exact field values, and per key the rate-limit window as the deployment last described it.
import type { Exchange } from '../http/exchange.ts';
import type { KeyName } from './requestView.ts';
import { emptyHttpMemory, type HttpMemory } from './http/httpMemory.ts';

/** A pet's fields as the model holds them: text exactly as sent or first read; ids and categoryIds as digits. */
export interface PetFacts {
  id: string;
  name?: string;
  categoryId?: string;
  /** The status, `absent` when the pet has none, undefined while unknown (created without one, not yet read). */
  status?: string;
  /** Created by this run (not only listed): such a pet must be found by its id. */
  created: boolean;
  /** The exchange the facts come from. */
  seq: number;
}

/** One answer's account of a key's window. */
export interface WindowObservation {
  seq: number;
  limit: number;
  remaining: number;
  /** Unix seconds. */
  reset: number;
  /** When the answer was given, in ms: its Date header, or when the request left. */
  at: number;
  /** The local address the request came from, when the run chose one (see `ConnectionChoice`). */
  source?: string;
}

export interface KeyLedger {
  last?: WindowObservation;
  /** What the requests since `last` can have cost, at least and at most. */
  spentMin: number;
  spentMax: number;
  /** The seqs of those requests, for the finding. */
  since: number[];
  /**
   * The window a 429 closed: until its reset, or until the 429's Retry-After told the client it may
   * retry if that comes first (a sliding window frees a request before its whole quota is back),
   * nothing with the key is served. `until` is that instant in ms, on the deployment's clock.
   */
  closed?: { reset: number; seq: number; until: number };
}

/** The first answer of a group of equivalent requests, and what it cost the key's window when that could be told. */
export interface GroupFirst {
  seq: number;
  status: number;
  path: string;
  exchange: Exchange;
  cost?: number;
}

export interface ModelState {
  pets: Map<string, PetFacts>;
  ledgers: Map<KeyName, KeyLedger>;
  /** The first answer of each group of equivalent requests, by group. */
  equivalents: Map<string, GroupFirst>;
  /** Names of pets a request without a valid key tried to create: none may ever be read back. */
  keylessNames: Map<string, number>;
  /** Names sent in one create only, with the id its 201 gave: no other id may carry them. */
  onceNames: Map<string, { id: string; seq: number }>;
  /** Names only a create refused with a 4xx (the key's, neither 401, 403 nor 429) sent, each with that request's seq. */
  refusedNames: Map<string, number>;
  /** What HTTP itself lets the run hold later answers to (the HTTP linter's). */
  http: HttpMemory;
  /** The last answer served with the run's key and what it said of the window, and how many in a row since left Remaining where it was. */
  countdown: { previous?: { limit: number; remaining: number; reset: number }; flat: { count: number; firstSeq: number } };
}

export function emptyState(): ModelState {
  return { pets: new Map(), ledgers: new Map(), equivalents: new Map(), keylessNames: new Map(), onceNames: new Map(), refusedNames: new Map(), http: emptyHttpMemory(), countdown: { flat: { count: 0, firstSeq: 0 } } };
}

export function ledger(state: ModelState, key: KeyName): KeyLedger {
  let found = state.ledgers.get(key);
  if (!found) state.ledgers.set(key, (found = { spentMin: 0, spentMax: 0, since: [] }));
  return found;
}
