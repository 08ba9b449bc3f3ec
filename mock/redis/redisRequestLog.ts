import { RequestLog, type LoggedRequest, type RecordedRequest, type RequestFilter } from '../state/requestLog.ts';
import type { RequestJournal } from '../state/stateParts.ts';
import type { RedisConnection } from './connectRedis.ts';

/**
 * Every replica's requests in one Redis list, newest last, trimmed to `capacity` as entries arrive
 * (one script per request, not awaited by the answer). Each entry is stamped with the replica that
 * wrote it, inside the same script call. Reading presents and filters them exactly as the
 * in-memory log does.
 */
export class RedisRequestLog implements RequestJournal {
  #pending = new Set<Promise<unknown>>();

  constructor(
    private readonly redis: RedisConnection,
    readonly capacity: number,
    /** This replica's id (--replica-id). */
    readonly replica: string,
  ) {}

  add(entry: RecordedRequest): void {
    if (this.capacity === 0) return;
    // The answer does not wait for the log, and a lost entry (Redis away) must not fail it:
    // the connection has already logged that Redis went away.
    const write = this.redis.script('logRequest', [this.capacity, JSON.stringify({ ...entry, replica: this.replica })]).catch(() => {});
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  async flush(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async list(filter: RequestFilter = {}): Promise<LoggedRequest[]> {
    const texts = await this.redis.run((client) => client.lrange(this.redis.key('log'), 0, -1));
    const view = new RequestLog(Math.max(texts.length, 1));
    for (const text of texts) view.add(JSON.parse(text) as RecordedRequest);
    return view.list(filter);
  }

  async recorded(): Promise<RecordedRequest[]> {
    const texts = await this.redis.run((client) => client.lrange(this.redis.key('log'), 0, -1));
    return texts.map((text) => JSON.parse(text) as RecordedRequest);
  }

  /** How many entries the cap has pushed out since the log was last cleared. */
  async dropped(): Promise<number> {
    return Number((await this.redis.run((client) => client.get(this.redis.key('log:dropped')))) ?? 0);
  }

  async clear(): Promise<void> {
    await this.redis.run((client) => client.del(this.redis.key('log'), this.redis.key('log:dropped')));
  }
}
