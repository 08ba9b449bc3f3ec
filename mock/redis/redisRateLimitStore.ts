import type { ApiKeyEntry } from '../state/keyRing.ts';
import type { Limits } from '../rateLimits/plans.ts';
import type { BanPolicy, RateDecision } from '../rateLimits/rateLimiter.ts';
import type { RedisConnection } from './connectRedis.ts';
import { keyDigest } from '../state/keyEntry.ts';
import type { RedisClock } from './redisClock.ts';
import type { RateLimits } from '../state/stateParts.ts';

/** What one admission learns in one step: whose quota the request spends, whether it may pass, and its step's raw reply. */
export interface LimiterAdmission {
  /** The accepted key, when the request presented one the mock knows. */
  key: ApiKeyEntry | undefined;
  /** The bucket that was counted: the key's, or the client's address's. */
  bucketId: string;
  decision: RateDecision;
  /** The pet step's tag and payload (petSteps in luaScripts.ts); undefined when it was not run. */
  step?: [string, unknown] | undefined;
}

export interface LimiterRequest {
  /** The bearer token as sent, when there was one. */
  token: string | undefined;
  /** The bucket a request without a known key spends and its limits (anonymousBucket). */
  anonymous: { bucketId: string; limits: Limits };
}

/** A pet step to run in the admission's script: the fault rules' version the request was matched against, and runStep's arguments. */
export interface ScriptStep {
  faultsVersion: string;
  args: readonly (string | number)[];
}

type AdmitReply = [string | null, number, number, number, number, number, number, string, string, string | null, string, string | null, unknown, 'minute' | 'day'];

/**
 * Rate limits counted in Redis, one Lua script per request: every replica's requests land in the
 * same counters atomically, so a key gets its quota once across all replicas, and every replica
 * sends the same headers. The script reads the shared clock too (the windows follow the mock's
 * time), and hands its state to the replica's clock on the way back, and the fault rules'
 * version to the replica's rules (redisFaultRules.ts), so that neither costs a request a round trip.
 */
export class RedisRateLimitStore implements RateLimits {
  constructor(
    private readonly redis: RedisConnection,
    private readonly clock: RedisClock,
    private readonly ban: BanPolicy,
    private readonly faults?: { observe(version: string): void },
  ) {}

  async consume(bucketId: string, limits: Limits): Promise<RateDecision> {
    return (await this.#admit('', bucketId, limits, true)).decision;
  }

  async peek(bucketId: string, limits: Limits): Promise<RateDecision> {
    return (await this.#admit('', bucketId, limits, false)).decision;
  }

  /** Key lookup, rate decision and (when admitted with a key) the step, in one round trip; `spend: false` only reports. */
  admit({ token, anonymous }: LimiterRequest, spend: boolean, step?: ScriptStep): Promise<LimiterAdmission> {
    return this.#admit(token === undefined ? '' : keyDigest(token), anonymous.bucketId, anonymous.limits, spend, step);
  }

  /** Starts a new generation of counters: every bucket and ban is forgotten at once. */
  async clear(): Promise<void> {
    await this.redis.run((client) => client.incr(this.redis.key('rate:gen')));
  }

  async #admit(digest: string, bucketId: string, limits: Limits, spend: boolean, step?: ScriptStep): Promise<LimiterAdmission> {
    const reply = (await this.redis.script('admit', [
      digest, bucketId, limits.perMinute, limits.perDay, this.clock.base.now(), this.ban.threshold, this.ban.seconds * 1000, spend ? '1' : '0',
      ...(step ? [step.faultsVersion, ...step.args] : []),
    ])) as AdmitReply;
    const [entryJson, allowed, banned, limit, remaining, reset, retryAfter, , offset, frozenAt, faultsVersion, tag, out, window] = reply;
    this.clock.observe(Number(offset), frozenAt === null ? undefined : Number(frozenAt));
    this.faults?.observe(faultsVersion);
    const key = entryJson === null ? undefined : (JSON.parse(entryJson) as ApiKeyEntry);
    return {
      key,
      bucketId: key?.bucketId ?? bucketId,
      decision: { allowed: allowed === 1, banned: banned === 1, limit, remaining, reset, retryAfter, window, quotas: { perMinute: (key?.limits ?? limits).perMinute, perDay: (key?.limits ?? limits).perDay } },
      step: tag === null ? undefined : [tag, out],
    };
  }
}
