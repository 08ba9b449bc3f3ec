import { seedFaultDraws } from '../state/faultDraws.ts';
import { faultMatches, faultMayMatch, faultView, firedFault, type FaultSpec, type FaultTarget, type FaultView, type FiredFault } from '../state/faultRule.ts';
import { StalledAnswers } from '../state/stalledAnswers.ts';
import type { ControlledClock, FaultRules } from '../state/stateParts.ts';
import type { RedisConnection } from './connectRedis.ts';

interface CachedRule {
  id: string;
  rule: FaultSpec;
}

/**
 * The fault rules in Redis, shared by every replica on the prefix: what they match, how often they
 * fired and will fire, and their draws are all kept there, so "the next 3 requests" are 3 across
 * the replicas, and a rule with a probability draws one sequence whichever replica takes each
 * request (luaScripts.ts). A request costs no round trip for them while there are no rules, or
 * none that matches it: every admission (one script, which a request sends anyway) reads back the
 * rules' version; a replica that finds it changed reads the rules once, then matches each request
 * itself, and asks Redis (one script) only for a request some rule matches, to count it.
 */
export class RedisFaultRules implements FaultRules {
  /** The version the rules below were read at; undefined before the first read. */
  #known: string | undefined;
  /** The version the last admission saw. */
  #observed = '0';
  /** The rules with answers left, in order, as last read. */
  #active: CachedRule[] = [];
  #reading: Promise<void> | undefined;
  readonly stalls: StalledAnswers;

  constructor(private readonly redis: RedisConnection, clock: ControlledClock) {
    this.stalls = new StalledAnswers(clock, async () => new Set((await this.list()).map((rule) => rule.id)));
  }

  /** Takes the version an admission read back. */
  observe(version: string): void {
    this.#observed = version;
  }

  async add(rule: FaultSpec): Promise<FaultView> {
    const [id, version] = (await this.redis.script('faultAdd', [JSON.stringify(rule), rule.times ?? -1, rule.probability === undefined ? 0 : seedFaultDraws(rule.seed!), rule.probability ?? 1])) as [string, string];
    this.observe(version);
    return faultView(id, rule, 0, rule.times ?? null, rule.action === 'stall' ? 0 : undefined);
  }

  async list(): Promise<FaultView[]> {
    const [version, ...flat] = (await this.redis.script('faultList', [])) as string[];
    const views: FaultView[] = [];
    const active: CachedRule[] = [];
    for (let i = 0; i < flat.length; i += 4) {
      const id = flat[i]!;
      const rule = JSON.parse(flat[i + 1]!) as FaultSpec;
      const left = Number(flat[i + 3]);
      views.push(faultView(id, rule, Number(flat[i + 2]), left < 0 ? null : left, rule.action === 'stall' ? this.stalls.holding(id) : undefined));
      if (left !== 0) active.push({ id, rule });
    }
    this.#active = active;
    this.#known = version;
    this.observe(version!);
    return views;
  }

  async remove(id: string): Promise<boolean> {
    const [removed, version] = (await this.redis.script('faultRemove', [id])) as [number, string];
    this.observe(version);
    this.stalls.release(id);
    return removed > 0;
  }

  async clear(): Promise<void> {
    const [, version] = (await this.redis.script('faultRemove', [''])) as [number, string];
    this.observe(version);
    this.stalls.release();
  }

  /** The version the rules were last read at; an admission runs its step only while Redis still has it. */
  get version(): string {
    return this.#known ?? '';
  }

  refresh(): Promise<void> | undefined {
    if (this.#known === this.#observed) return undefined;
    return (this.#reading ??= this.list().then(() => undefined).finally(() => (this.#reading = undefined)));
  }

  mayFire(target: FaultTarget): boolean {
    return this.#known !== this.#observed || this.#active.some((cached) => faultMayMatch(cached.rule, target));
  }

  fire(target: FaultTarget): FiredFault | undefined | Promise<FiredFault | undefined> {
    // The common case: rules as last read, and none of them takes this request. No round trip.
    if (!this.mayFire(target)) return undefined;
    return this.#fire(target);
  }

  async #fire(target: FaultTarget): Promise<FiredFault | undefined> {
    await this.refresh();
    const candidates = this.#active.filter((cached) => faultMatches(cached.rule, target));
    if (candidates.length === 0) return undefined;
    const reply = (await this.redis.script('faultFire', candidates.map((cached) => cached.id))) as [string, string, string] | null;
    if (reply === null) return undefined;
    return firedFault(reply[0], candidates.find((cached) => cached.id === reply[0])!.rule);
  }
}
