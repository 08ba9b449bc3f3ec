// What the soak tier's runs in a row share: the demo keys and their day, and why a run did not pass.
import type { Depth } from '../check.ts';
import type { ConformanceResult } from '../index.ts';

export const soakDepths: Depth[] = ['quick', 'full', 3];
/** The demo keys of fixtures/keys.json and what each may spend in a UTC day. */
export const soakKeys = [
  { key: 'demo-free', perDay: 1_000 },
  { key: 'demo-pro', perDay: 10_000 },
  { key: 'demo-enterprise', perDay: 100_000_000 },
];
/** Requests without a key are counted per client address at the Free plan's day. */
const anonymousPerDay = 1_000;
/** More than any run sends with its key (a Pro run at --depth full over sockets: 597 measured). */
const aRunAtMost = 700;
const dayMs = 86_400_000;

/**
 * What each key, and the client address without a key, spent in the mock's UTC day. A key's day
 * that would not hold another run moves the clock to the next day: the gate runs again the next
 * day, as the contract's day quota makes any client do (a run that meets it exits 2, honestly).
 */
export class DayBudget {
  readonly #spent = new Map<string, number>();
  #day: number;
  constructor(private readonly clock: { now(): number; advance(ms: number): void }) {
    this.#day = Math.floor(clock.now() / dayMs);
  }

  /** Before a run with `key`: the next day if this one would not hold it. */
  before(key: string): void {
    if ((this.#spent.get(key) ?? 0) + aRunAtMost > soakKeys.find((k) => k.key === key)!.perDay || (this.#spent.get('') ?? 0) + 40 > anonymousPerDay) {
      this.clock.advance((this.#day + 1) * dayMs + 30_000 - this.clock.now());
    }
    const today = Math.floor(this.clock.now() / dayMs);
    if (today !== this.#day) {
      this.#day = today;
      this.#spent.clear();
    }
  }

  /** After it: spent across a midnight or not, counted against the day it started in (an overestimate). */
  after(key: string, result: ConformanceResult): void {
    this.#spent.set(key, (this.#spent.get(key) ?? 0) + result.report.requests.withKey);
    this.#spent.set('', (this.#spent.get('') ?? 0) + result.report.requests.withoutKey);
  }
}

/** Why a run did not exit 0: its reason, or its failing checks and their first findings. */
export function whyNot(result: ConformanceResult): string {
  if (result.report.reason !== undefined) return result.report.reason;
  return result.report.checks
    .filter((c) => c.status === 'failed')
    .map((c) => `${c.id}: ${c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure')).map((f) => f.message).slice(0, 2).join(' | ')}`)
    .join('\n');
}

/** What a run's own budget kept in part, never to be judged: none is expected. */
export function keptInPart(result: ConformanceResult, label: string): string[] {
  return result.report.checks.flatMap((c) => c.operations.flatMap((o) => (o.inconclusive ?? []).filter((i) => /its own budget/.test(i.reason)).map((i) => `${label} ${c.id}: ${i.reason}`)));
}
