// The suite's seeded generated traffic (conformance/traffic/) sent to both sides of a drift run:
// the same commands from the same seed, drawn as the suite draws them (the relations first, then
// the sequences), each command interpreted by sendCommand against each side's own state (the pets
// that side created, the pets it listed) and sent to both before the next. Each answer is tagged
// with the command's case and its place in it, so the two answers to one generated request pair up
// (pairAnswers), whatever ids each side gave.
import fc from 'fast-check';
import { parseBody, type ApiRequest, type Exchange } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import { setCredential } from '../http/setCredential.ts';
import { integerText } from '../../common/json/losslessJson.ts';
import type { KnownPet } from '../model/runFacts.ts';
import { sequenceArbitrary, type Command } from '../traffic/commands.ts';
import { relationPass } from '../traffic/relations.ts';
import { sendCommand, type TrafficContext, type TrafficState } from '../traffic/sendCommand.ts';
import type { DriftSide } from './driftSide.ts';
import { petIdOfPath, type SideAnswer } from './comparePairs.ts';

export interface GeneratedOptions {
  /** The suite's `--seed`: the same seed sends the same commands. */
  seed: number;
  /** The most generated requests sent to each side. */
  maxRequests: number;
}

/** What the generated traffic sent to one side, in order, each answer with its pairing key. */
export interface GeneratedSideRecord {
  answers: SideAnswer[];
  /** Why it stopped before `maxRequests`, when it did. */
  stopped?: string;
}

const sequenceLength = 8;
/** Requests a command may send at most (a burst and its read-backs, a relation's forms): none starts without room for them. */
const perCommand = 14;
/** Requests left in a side's quota below which no more are sent: the probes and the judges' view of the quota stay untouched by a 429. */
const quotaReserve = 10;


/** The pet a create's 2xx gave, as exact id text. */
const createdIdOf = (exchange: Exchange): string | undefined => (exchange.response.status >= 200 && exchange.response.status < 300 ? integerText((exchange.response.value as { id?: unknown } | undefined)?.id) : undefined);

/** One side's view of the generated traffic: its state, its quotas as its answers told them, and the answers tagged for pairing. */
class TrafficSide {
  readonly state: TrafficState = { created: [], bursts: 0, groups: 0 };
  known: KnownPet[] = [];
  readonly answers: SideAnswer[] = [];
  /** Per pet id this side made or listed: the step that made it (`listed` for one it listed). */
  readonly origins = new Map<string, string>();
  readonly quota = { key: {} as { limit?: number; remaining?: number }, anonymous: {} as { limit?: number; remaining?: number } };
  keyless = 0;
  /** The pairing key of the command being sent, and how many requests it has sent. */
  #step = '';
  #inStep = new Map<string, number>();

  constructor(readonly side: DriftSide) {}

  step(name: string): void {
    this.#step = name;
    this.#inStep.clear();
  }

  headersOf(request: ApiRequest): { headers: Record<string, string>; omit: string[] } {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name] = value;
    // A side has one key: the second key's requests (none are drawn without --api-key-2) would spend it too.
    setCredential(headers, request.auth, () => this.side.target.apiKey);
    return { headers, omit: [...(request.omitHeaders ?? [])] };
  }

  async send(request: ApiRequest): Promise<Exchange | undefined> {
    // The key of this answer, taken before any await: a burst's requests are numbered as sent, not as answered.
    const label = request.case ?? this.#step;
    const n = (this.#inStep.get(label) ?? 0) + 1;
    this.#inStep.set(label, n);
    const key = `${label}#${n}`;
    const { headers, omit } = this.headersOf(request);
    const withoutKey = request.auth === 'none' || request.intent === 'unauthenticated';
    if (withoutKey) this.keyless++;
    const { response, seq } = await this.side.exchange(key, { method: request.method, path: request.path, withKey: false, headers, omitHeaders: omit, ...(request.body !== undefined ? { body: request.body } : {}), ...(request.connection ? { connection: request.connection } : {}) });
    const id = petIdOfPath(request.path);
    const parsed = parseBody(response?.body ?? '');
    const answer: SideAnswer = {
      key,
      seq,
      request: { method: request.method, path: request.path, auth: request.auth, intent: request.intent, operationId: request.operationId, ...(request.body !== undefined ? { body: request.body, sent: parseBody(request.body) } : {}), ...(request.headers ? { headers: request.headers } : {}) },
      ...(response ? { response: { status: response.status, headers: response.headers, body: response.body, json: parsed.json } } : {}),
      ...(id !== undefined && this.origins.has(id) ? { petOrigin: this.origins.get(id)! } : {}),
    };
    this.answers.push(answer);
    if (!response) return undefined;
    const bucket = withoutKey ? this.quota.anonymous : this.quota.key;
    const { limit, remaining } = readRateHeaders(response.headers);
    if (limit !== undefined) bucket.limit = limit;
    if (remaining !== undefined) bucket.remaining = remaining;
    const exchange: Exchange = {
      seq,
      checkId: 'drift',
      operationId: request.operationId,
      intent: request.intent,
      ...(request.case !== undefined ? { case: request.case } : {}),
      path: request.path,
      bucket: withoutKey ? 'anonymous' : 'key',
      sentAt: this.side.target.now(),
      request: { method: request.method, url: request.path, headers },
      response: { status: response.status, headers: response.headers, rawHeaders: response.rawHeaders, body: response.body, bytes: response.bytes, ...parsed, durationMs: 0 },
      retries: 0,
    };
    if (request.operationId === 'createPet') {
      const created = createdIdOf(exchange);
      if (created !== undefined) this.origins.set(created, key);
    }
    return exchange;
  }

  /** The pets a plain list shows: the generated reads pick among them, and the creates take their categories. */
  async learnPets(): Promise<void> {
    const exchange = await this.send({ method: 'GET', path: '/pets', auth: 'key', operationId: 'listPets', intent: 'valid', case: 'generated/known-pets' });
    const value = exchange?.response.status === 200 ? exchange.response.value : undefined;
    if (!Array.isArray(value)) return;
    for (const pet of value) {
      if (pet === null || typeof pet !== 'object' || Array.isArray(pet)) continue;
      const idText = integerText((pet as Record<string, unknown>).id);
      if (idText === undefined) continue;
      const { name, categoryId, status } = pet as Record<string, unknown>;
      this.known.push({ id: Number(idText), idText, name, categoryId: typeof categoryId === 'bigint' ? Number(categoryId) : categoryId, status });
      this.origins.set(idText, 'listed');
    }
  }
}

/** The commands a seed draws, as the suite's generated traffic draws them: each relation, then the sequences. */
function generatedCommands(seed: number, sequences: number): { label: string; commands: Command[] }[] {
  const draw = <T>(arbitrary: fc.Arbitrary<T>, at: number): T => fc.sample(arbitrary, { seed: at, numRuns: 1 })[0]!;
  const relations = relationPass({ readOnly: false, otherAddress: false }).map((relation, i) => ({ label: `generated/relations/${i + 1}`, commands: [draw(relation, seed * 7919 - 1 - i) as Command] }));
  const arbitrary = sequenceArbitrary({ readOnly: false, key2: false }, sequenceLength);
  const drawn = Array.from({ length: sequences }, (_, index) => ({ label: `generated/${index + 1}`, commands: draw(arbitrary, seed * 7919 + index) }));
  return [...relations, ...drawn];
}

/**
 * Sends the generated traffic to both sides, a command to each before the next, until either has
 * sent `maxRequests` or its quota runs low. Both sides see the same quota figures (the lower of the
 * two) so that a command one side would leave out for want of quota is left out on both.
 */
export async function sendGeneratedTraffic(base: DriftSide, against: DriftSide, options: GeneratedOptions): Promise<{ base: GeneratedSideRecord; against: GeneratedSideRecord }> {
  const sides = [new TrafficSide(base), new TrafficSide(against)] as const;
  await Promise.all(sides.map((s) => s.learnPets()));
  const lower = (which: 'key' | 'anonymous') => {
    const [a, b] = sides.map((s) => s.quota[which]);
    const min = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
    return { ...(min(a!.limit, b!.limit) !== undefined ? { limit: min(a!.limit, b!.limit)! } : {}), ...(min(a!.remaining, b!.remaining) !== undefined ? { remaining: min(a!.remaining, b!.remaining)! } : {}) };
  };
  const contextOf = (side: TrafficSide, shared: { key: ReturnType<typeof lower>; anonymous: ReturnType<typeof lower>; keyless: number }): TrafficContext => ({
    apiKey: side.side.target.apiKey,
    knownPets: () => side.known,
    keyQuota: () => shared.key,
    anonymousQuota: () => shared.anonymous,
    keylessSent: () => shared.keyless,
    otherSourceAddress: () => Promise.resolve(undefined),
  });
  let stopped: string | undefined;
  // Enough sequences to spend the budget: each sends a few requests.
  for (const { label, commands } of generatedCommands(options.seed, Math.ceil(options.maxRequests / 4))) {
    for (const [position, command] of commands.entries()) {
      const sent = Math.max(...sides.map((s) => s.answers.length));
      const key = lower('key');
      if (sent + perCommand > options.maxRequests) stopped = `the ${options.maxRequests} generated requests a side may be sent (--generated-requests) were spent`;
      else if (key.remaining !== undefined && key.remaining < quotaReserve + perCommand) stopped = `a side's key had ${key.remaining} requests left in its window (X-RateLimit-Remaining): no more were sent, so that no 429 decides an answer`;
      if (stopped !== undefined) break;
      const shared = { key, anonymous: lower('anonymous'), keyless: Math.max(...sides.map((s) => s.keyless)) };
      const caseName = `${label}/${position + 1}`;
      await Promise.all(
        sides.map((side) => {
          side.step(caseName);
          return sendCommand(contextOf(side, shared), side.state, command, caseName, (request) => side.send(request));
        }),
      );
    }
    if (stopped !== undefined) break;
  }
  const [a, b] = sides;
  return { base: { answers: a.answers, ...(stopped ? { stopped } : {}) }, against: { answers: b.answers, ...(stopped ? { stopped } : {}) } };
}
