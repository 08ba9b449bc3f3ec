import type { ControlledClock, FaultRules } from './stateParts.ts';
import { nextFaultDraw, seedFaultDraws } from './faultDraws.ts';
import { faultMatches, faultMayMatch, faultView, firedFault, type FaultSpec, type FaultTarget, type FaultView, type FiredFault } from './faultRule.ts';
import { StalledAnswers } from './stalledAnswers.ts';

interface Entry {
  id: string;
  rule: FaultSpec;
  fired: number;
  /** -1: no limit. */
  left: number;
  /** The state of the rule's draws (faultDraws.ts); 0 for a rule without a probability. */
  draws: number;
}

/**
 * The fault rules of an in-memory mock, in the order they were added: a request is answered by the
 * first that matches it, has answers left and, with a probability, draws below it. Ids count up for
 * the mock's life (`fault-1`, `fault-2`, ...), reset or not, so an old id never names a new rule.
 */
export class FaultBook implements FaultRules {
  #entries: Entry[] = [];
  #lastId = 0;
  readonly stalls: StalledAnswers;

  constructor(clock: ControlledClock) {
    this.stalls = new StalledAnswers(clock, () => new Set(this.#entries.map((e) => e.id)));
  }

  add(rule: FaultSpec): FaultView {
    const entry: Entry = { id: `fault-${++this.#lastId}`, rule, fired: 0, left: rule.times ?? -1, draws: rule.probability === undefined ? 0 : seedFaultDraws(rule.seed!) };
    this.#entries.push(entry);
    return this.#view(entry);
  }

  list(): FaultView[] {
    return this.#entries.map((entry) => this.#view(entry));
  }

  remove(id: string): boolean {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((entry) => entry.id !== id);
    this.stalls.release(id);
    return this.#entries.length < before;
  }

  clear(): void {
    this.#entries = [];
    this.stalls.release();
  }

  /** In memory the rules change only between a request's steps, never during one. */
  readonly version = null;

  refresh(): undefined {
    return undefined;
  }

  mayFire(target: FaultTarget): boolean {
    return this.#entries.length > 0 && this.#entries.some((entry) => entry.left !== 0 && faultMayMatch(entry.rule, target));
  }

  fire(target: FaultTarget): FiredFault | undefined {
    // The common case, no rules at all, costs one comparison per request.
    if (this.#entries.length === 0) return undefined;
    for (const entry of this.#entries) {
      if (entry.left === 0 || !faultMatches(entry.rule, target)) continue;
      if (entry.rule.probability !== undefined && entry.rule.probability < 1) {
        const { state, draw } = nextFaultDraw(entry.draws);
        entry.draws = state;
        if (draw >= entry.rule.probability) continue;
      }
      entry.fired++;
      if (entry.left > 0) entry.left--;
      return firedFault(entry.id, entry.rule);
    }
    return undefined;
  }

  #view({ id, rule, fired, left }: Entry): FaultView {
    return faultView(id, rule, fired, left < 0 ? null : left, rule.action === 'stall' ? this.stalls.holding(id) : undefined);
  }
}
