import { realTimers } from '../state/realTimers.ts';

/**
 * Lets a warning about one name (a query parameter, an origin) through once per window, so that a
 * page polling with the same mistake warns once a minute instead of filling the log. Real time,
 * not the mock's clock: a frozen mock clock would otherwise silence a name for ever. Holds at most
 * `maxNames` names; made-up names never pile up in memory.
 */
export class LogThrottle {
  readonly #last = new Map<string, number>();

  constructor(private readonly everyMs = 60_000, private readonly now: () => number = realTimers.now, private readonly maxNames = 1000) {}

  /** The names not warned about within the window, now counted as warned about. */
  fresh(names: readonly string[]): string[] {
    const now = this.now();
    const fresh = names.filter((name) => !((this.#last.get(name) ?? -Infinity) > now - this.everyMs));
    if (fresh.length === 0) return fresh;
    if (this.#last.size + fresh.length > this.maxNames) this.#last.clear();
    for (const name of fresh) this.#last.set(name, now);
    return fresh;
  }
}
