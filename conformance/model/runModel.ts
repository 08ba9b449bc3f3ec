// The model as an oracle: every exchange of a run, in order, judged against what the exchanges
// before it taught, then taught to the model. The same exchanges give the same judgements.
import type { Exchange, UnansweredRequest } from '../http/exchange.ts';
import { judgeAccess } from './judgeAccess.ts';
import { judgeData, learnData } from './judgeData.ts';
import { judgeDeprecation } from './judgeDeprecation.ts';
import { judgeDraftRateLimit } from './http/judgeDraftRateLimit.ts';
import { judgeEquivalence, learnEquivalence } from './judgeEquivalence.ts';
import { judgeHttp, learnHttp } from './judgeHttp.ts';
import { judgeFraming } from './judgeFraming.ts';
import { judgeRate, learnRate, learnUnanswered, type RateOptions } from './judgeRate.ts';
import { judgeSilence } from './judgeSilence.ts';
import { judgeDropped } from './judgeDropped.ts';
import { judgeWire } from './judgeWire.ts';
import { judgeContentType, judgeResponseSchema, judgeValidCreate } from './judgeBodies.ts';
import { judgeRateHeaders } from './judgeRateHeaders.ts';
import { judgePlanLimit } from './judgePlanLimit.ts';
import type { KeyPlans } from './contractPlans.ts';
import { judgeStatusCodes } from './judgeStatusCodes.ts';
import type { SpecValidators } from '../specValidators.ts';
import type { Judgement } from './judgement.ts';
import { emptyState, type ModelState } from './modelState.ts';
import { outsideTheBase } from './locationToRead.ts';
import { viewRequest, type RequestView } from './requestView.ts';

export interface ModelOptions extends RateOptions {
  /** The contract's schemas, compiled: what the statuses, bodies and headers of every answer are held to. */
  validators: SpecValidators;
  /** The plans the run was told its keys are of (`--api-key-plan`, `--api-key-2-plan`), by key. */
  plans?: KeyPlans;
}

/** An attempt that got no answer: where it falls among the exchanges and what it sent, and, from the client, the rest. */
type UnansweredEntry = Pick<UnansweredRequest, 'afterSeq' | 'request'> & Partial<UnansweredRequest>;
const isWhole = (u: UnansweredEntry): u is UnansweredRequest => u.operationId !== undefined && u.sentAt !== undefined && u.error !== undefined && u.checkId !== undefined && u.durationMs !== undefined;

export interface ModelVerdict {
  judgements: readonly Judgement[];
  state: ModelState;
}

/** One exchange as the model judges it, with its request read once. */
export type ModelItem = { exchange: Exchange; view: RequestView };
type Item = ModelItem;

/**
 * Feeds a growing record of exchanges to the model: each is judged once. A burst of parallel
 * requests is judged as one group; the record is fed between requests, never inside a burst.
 */
export class ModelRun {
  readonly #state = emptyState();
  readonly #judgements: Judgement[] = [];
  #fed = 0;
  #pending: Item[] = [];
  #unansweredFed = 0;

  constructor(readonly options: ModelOptions) {}

  /**
   * Judges what the record holds beyond what was fed before. `unanswered` are the attempts that got
   * no answer, each placed after the exchange numbered `afterSeq`.
   */
  feed(exchanges: readonly Exchange[], unanswered: readonly UnansweredEntry[] = []): ModelVerdict {
    for (; this.#fed < exchanges.length; this.#fed++) {
      const exchange = exchanges[this.#fed]!;
      // Attempts lost before this answer may have been counted: the ledgers allow for them, after
      // the answers before them (a burst still open is judged first, then they are learnt).
      const learnLost = () => {
        for (; this.#unansweredFed < unanswered.length && unanswered[this.#unansweredFed]!.afterSeq < exchange.seq; this.#unansweredFed++) {
          learnUnanswered(unanswered[this.#unansweredFed]!.request.headers, this.#state);
        }
      };
      // A request a check sent outside the API (a Location elsewhere on its origin): not the API's
      // answer to judge, and for the key's ledger an attempt that may have been counted.
      if (outsideTheBase(exchange)) {
        this.#flush();
        learnLost();
        learnUnanswered(exchange.request.headers, this.#state);
        continue;
      }
      const item = { exchange, view: viewRequest(exchange) };
      const open = this.#pending[0]?.exchange.burst;
      if (open !== undefined && exchange.burst === open) {
        learnLost();
        this.#pending.push(item);
        continue;
      }
      this.#flush();
      learnLost();
      this.#pending = [item];
      if (exchange.burst === undefined) this.#flush();
    }
    this.#flush();
    // A silence is judged on the whole record as it stands: what was answered after it began decides.
    return { judgements: [...this.#judgements, ...judgeSilence(unanswered.filter(isWhole), exchanges), ...judgeDropped(unanswered.filter(isWhole), exchanges)], state: this.#state };
  }

  #flush(): void {
    const group = this.#pending;
    this.#pending = [];
    for (const judgements of judgeGroupSteps(group, this.#state, this.options)) this.#judgements.push(...judgements);
  }
}

/**
 * Judges one group (a single exchange, or a burst of parallel ones) against the state, then teaches
 * it the group: one step for the group's rate-limit accounting, one per exchange, and the last
 * teaches the group's rates. A caller that must not hold the thread for a whole burst (the proxy)
 * takes the steps one at a time; the judgements are the same either way.
 */
export function* judgeGroupSteps(group: readonly ModelItem[], state: ModelState, options: ModelOptions): Generator<Judgement[], void, void> {
  if (group.length === 0) return;
  yield [...judgeRate(group, state, options), ...judgeRateHeaders(group.map((g) => g.exchange), state, options.validators)];
  // In a burst the answers arrive in any order: the creates are taken first, so a parallel list
  // that already shows a new pet does not make its own 201 look like an id reused.
  const ordered = group.length > 1 ? [...group.filter((g) => g.view.operation === 'createPet'), ...group.filter((g) => g.view.operation !== 'createPet')] : group;
  for (const { exchange, view } of ordered) {
    const judgements = [...judgeData(exchange, view, state), ...judgeWire(exchange, view), ...judgeDeprecation(exchange, view), ...judgeDraftRateLimit(exchange, view), ...judgePlanLimit(exchange, view, options.plans), ...judgeAccess(exchange, view, state), ...judgeEquivalence(exchange, view, state, options), ...judgeHttp(exchange, view, state), ...judgeFraming(exchange, view), ...judgeStatusCodes(exchange, options.validators), ...judgeContentType(exchange, options.validators), ...judgeResponseSchema(exchange, options.validators), ...judgeValidCreate(exchange)];
    learnData(exchange, view, state);
    learnEquivalence(exchange, state, view);
    learnHttp(exchange, view, state.http);
    yield judgements;
  }
  // After the whole group: in a burst, answers arrive in any order.
  learnRate(group, state);
}

/** The model's judgements on a finished record of exchanges. */
export function runModel(exchanges: readonly Exchange[], options: ModelOptions, unanswered: readonly UnansweredEntry[] = []): ModelVerdict {
  return new ModelRun(options).feed(exchanges, unanswered);
}
