import { isPromise, type Awaitable } from './awaitable.ts';
import { realTimers } from './realTimers.ts';

/** Why a held answer was let go: its time on the mock's clock is up, its rule is gone, or the mock closed. */
export type StallEnd = 'due' | 'gone' | 'closed';

interface Held {
  ruleId: string;
  /** When the stall ends, on the mock's clock; undefined: when the rule goes. */
  until: number | undefined;
  end(why: StallEnd): void;
}

/** How often held answers are looked at while nothing else wakes them: another replica's clock move or removal shows within this. */
const CHECK_EVERY_MS = 1000;

/**
 * The answers stall rules hold in this process, each until the mock's clock passes its end (the
 * clock a test moves: advanceClock ends a 30-second stall at once, no real time passes), until its
 * rule is removed, cleared or reset away, or until the mock closes. A clock move or a removal made
 * through this mock's control API lets them go at once (`check`); one made through another replica
 * is seen within a second, while anything is held. Nothing waits on a timer while nothing is held.
 */
export class StalledAnswers {
  readonly #held = new Set<Held>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** The mock's clock (ControlledClock): a stall ends on its time. */
    private readonly clock: { now(): number; state(): unknown },
    /** The ids of the rules there are now (on Redis, read from it). */
    private readonly liveRules: () => Awaitable<ReadonlySet<string>>,
  ) {}

  /** Holds an answer for the rule; `stallMs` on the mock's clock, or until the rule goes. `cancel` lets it go without an end (the client left). */
  hold(ruleId: string, stallMs: number | undefined): { ended: Promise<StallEnd>; cancel(): void } {
    let held!: Held;
    const ended = new Promise<StallEnd>((resolve) => {
      held = {
        ruleId,
        until: stallMs === undefined ? undefined : this.clock.now() + stallMs,
        end: (why) => {
          if (this.#held.delete(held)) resolve(why);
        },
      };
    });
    this.#held.add(held);
    this.#schedule();
    return { ended, cancel: () => void (this.#held.delete(held) && this.#schedule()) };
  }

  /** How many answers the rule holds now. */
  holding(ruleId: string): number {
    let count = 0;
    for (const held of this.#held) if (held.ruleId === ruleId) count++;
    return count;
  }

  /** Lets go what the rule (or, without one, every rule) holds: the rule is gone. */
  release(ruleId?: string): void {
    for (const held of [...this.#held]) if (ruleId === undefined || held.ruleId === ruleId) held.end('gone');
    this.#schedule();
  }

  /** Lets go everything held, for a mock that closes. */
  close(): void {
    for (const held of [...this.#held]) held.end('closed');
    this.#schedule();
  }

  /** Looks at every held answer now: after the clock moved, or a rule went elsewhere. */
  async check(): Promise<void> {
    if (this.#held.size === 0) return;
    // A shared clock answers its state from the store: what other replicas did to it shows.
    const state = this.clock.state();
    if (isPromise(state)) await state;
    const live = await this.liveRules();
    const now = this.clock.now();
    for (const held of [...this.#held]) {
      if (!live.has(held.ruleId)) held.end('gone');
      else if (held.until !== undefined && now >= held.until) held.end('due');
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== undefined) realTimers.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#held.size === 0) return;
    const now = this.clock.now();
    let wait = CHECK_EVERY_MS;
    for (const held of this.#held) if (held.until !== undefined) wait = Math.min(wait, Math.max(1, held.until - now));
    // The real timers, not a test's fake ones; unref'd: a held answer never keeps a process alive.
    this.#timer = realTimers.setTimeout(() => {
      this.#timer = undefined;
      this.check().catch(() => this.#schedule());
    }, wait);
    this.#timer.unref?.();
  }
}
