import type { ConnectionOptions } from 'node:tls';
import { Redis } from 'ioredis';
import { addFaultLua, admitLua, allPetsLua, clockLua, fireFaultLua, listFaultsLua, logRequestLua, removeFaultsLua, replaceStateLua, stagePetsLua, stepLua } from './luaScripts.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { checkRedisUrl, defaultRedisPrefix, redactRedisUrl } from './redisUrl.ts';

export { checkRedisUrl, defaultRedisPrefix, redactRedisUrl };

const scripts = {
  petsStep: stepLua,
  petsAll: allPetsLua,
  stateReplace: replaceStateLua,
  petsStage: stagePetsLua,
  admit: admitLua,
  clock: clockLua,
  logRequest: logRequestLua,
  faultAdd: addFaultLua,
  faultFire: fireFaultLua,
  faultList: listFaultsLua,
  faultRemove: removeFaultsLua,
} as const;

export type ScriptName = keyof typeof scripts;

/** Where the connection reports going away and coming back: once per change, never per request. */
export interface RedisLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
  url: string;
  /** Put before every key, so several mocks can share one Redis. Default `pets-mock:`. */
  prefix?: string;
  /** How long one command may take before the request gives up with StoreUnavailableError. Default 1000 ms. */
  commandTimeoutMs?: number;
  /** How long the first connection may take before the start fails. Default 3000 ms. */
  connectTimeoutMs?: number;
  logger?: RedisLogger;
  /** TLS options for a rediss:// URL, e.g. `{ ca }` for a private CA (Node's NODE_EXTRA_CA_CERTS works too). */
  tls?: ConnectionOptions;
}

/** Replies that mean "Redis is there but cannot serve now", as opposed to a bug in a command. */
const unavailableReplies = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOAUTH|WRONGPASS)\b/;

/**
 * One ioredis client with bounded failure behaviour: no offline queue (a command while Redis is
 * away fails at once instead of waiting), a per-command timeout (a Redis that hangs cannot hang a
 * request), no retries of a command whose connection dropped, and reconnection forever in the
 * background. `run` turns every failure to reach Redis into StoreUnavailableError.
 */
export class RedisConnection {
  readonly client: Redis;
  readonly prefix: string;
  /** The URL without its password. */
  readonly where: string;
  #available = false;
  #everReady = false;
  #lastError = '';
  #returnListeners = new Set<() => unknown>();
  #recovery: Promise<void> = Promise.resolve();
  readonly #logger: RedisLogger | undefined;

  constructor(options: RedisConnectionOptions) {
    checkRedisUrl(options.url);
    this.prefix = options.prefix ?? defaultRedisPrefix;
    this.where = redactRedisUrl(options.url);
    this.#logger = options.logger;
    this.client = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: options.connectTimeoutMs ?? 3000,
      maxRetriesPerRequest: 0,
      // Back within a second of Redis returning, without hammering it while it is away.
      retryStrategy: (times) => Math.min(times * 100, 1000),
      // Commands issued in the same tick share a write: many requests in flight cost few packets.
      enableAutoPipelining: true,
      // rediss:// turns TLS on; these options add to it (a private CA, a client certificate).
      ...(options.tls ? { tls: options.tls } : {}),
    });
    // Sent by SHA once loaded; after a Redis restart ioredis loads them again by itself (NOSCRIPT).
    for (const [name, lua] of Object.entries(scripts)) this.client.defineCommand(name, { numberOfKeys: 0, lua });
    this.client.on('error', (error: Error) => {
      this.#lastError = error.message;
    });
    this.client.on('ready', () => this.#returned());
    this.client.on('close', () => this.#lost(this.#lastError || 'connection closed'));
  }

  /** The last connection error ioredis reported, for messages. */
  get lastError(): string {
    return this.#lastError;
  }

  /** False while Redis is known to be unreachable. */
  get available(): boolean {
    return this.#available;
  }

  /**
   * Calls `listener` each time Redis comes back after being away (not on the first connection),
   * e.g. to seed a Redis that came back empty.
   */
  onReturn(listener: () => unknown): () => void {
    this.#returnListeners.add(listener);
    return () => this.#returnListeners.delete(listener);
  }

  /** Resolves once connected and the return listeners are done: for tests and health checks. */
  async whenAvailable(): Promise<void> {
    if (this.client.status !== 'ready') await new Promise((resolve) => this.client.once('ready', resolve));
    await this.#recovery;
  }

  /** Runs commands; a failure to reach Redis becomes StoreUnavailableError, other errors pass as they are. */
  async run<T>(commands: (client: Redis) => Promise<T>): Promise<T> {
    try {
      const result = await commands(this.client);
      // Back from a spell of timeouts on a connection that never closed (a Redis that hung).
      if (!this.#available && this.#everReady) this.#returned();
      return result;
    } catch (error) {
      if (isUnavailability(error)) {
        const reason = (error as Error).message;
        this.#lost(reason);
        throw new StoreUnavailableError(this.where, reason, { mayHaveRun: mayHaveRun(error as Error) });
      }
      throw error;
    }
  }

  /** Runs one of the state's Lua scripts (the prefix goes first), as `run` does. */
  script(name: ScriptName, args: readonly (string | number)[]): Promise<unknown> {
    const call = (this.client as unknown as Record<ScriptName, (...args: (string | number)[]) => Promise<unknown>>)[name];
    return this.run((client) => call.call(client, this.prefix, ...args));
  }

  /** The full name of one of the state's keys. */
  key(name: string): string {
    return this.prefix + name;
  }

  async close(): Promise<void> {
    this.#returnListeners.clear();
    this.#available = false;
    this.#everReady = false;
    // QUIT lets commands already sent finish; while Redis is away there is nothing to finish, and
    // disconnect() also stops the reconnection attempts (which would keep the process alive).
    if (this.client.status === 'ready') await this.client.quit().catch(() => {});
    this.client.disconnect();
  }

  #lost(reason: string): void {
    if (!this.#available) return;
    this.#available = false;
    this.#logger?.warn(`Redis at ${this.where} is unreachable (${reason}). API and control requests answer 503 STORE_UNAVAILABLE until it returns; reconnecting in the background.`);
  }

  #returned(): void {
    const wasReady = this.#everReady;
    this.#everReady = true;
    this.#lastError = '';
    if (this.#available) return;
    this.#available = true;
    if (!wasReady) return;
    this.#logger?.info(`Redis at ${this.where} is back; serving from it again.`);
    const listeners = [...this.#returnListeners].map((listener) => Promise.resolve().then(listener).catch(() => {}));
    this.#recovery = Promise.all(listeners).then(() => {});
  }
}

function isUnavailability(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A fault of this process's code is a bug to report, not an outage to wait out.
  if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError) return false;
  // ioredis reports a server's error reply as ReplyError; its other errors (closed stream, timeout,
  // refused connection, retries exhausted) mean Redis could not be reached.
  if (error.name !== 'ReplyError') return true;
  return unavailableReplies.test(error.message);
}

/**
 * Whether a command that failed to reach Redis may still have run there, for what the 503 tells
 * the client. Only two failures are known never to have run: a command refused before it was sent
 * (ioredis keeps no offline queue, so it fails at once while the connection is down) and one Redis
 * refused (LOADING, READONLY, ...). A timeout or a connection lost mid-command may have run; so may
 * anything not recognised, the safe side to err on.
 */
function mayHaveRun(error: Error): boolean {
  if (error.name === 'ReplyError') return false;
  return !/enableOfflineQueue/.test(error.message);
}

/**
 * Connects, or fails with a message that says what to fix. Once connected, the client reconnects
 * by itself whenever Redis goes away.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<RedisConnection> {
  const connection = new RedisConnection(options);
  try {
    await connection.client.connect();
  } catch (error) {
    connection.client.disconnect();
    throw new Error(`Cannot connect to Redis at ${connection.where}: ${connection.lastError || (error as Error).message}. Start Redis or fix --redis (redis://[:password@]host:port/db).`);
  }
  return connection;
}
