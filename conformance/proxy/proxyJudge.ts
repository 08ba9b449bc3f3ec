// The proxy's judge: each exchange is judged once, as soon as every request that arrived before it
// has ended, by the suite's model (the same judges a run's passive checks report, fed any stream of
// exchanges), and the judgements recorded on those checks' outcomes. What it keeps is bounded however long the proxy runs: the model's state,
// the checks' findings (at most a hundred distinct ones each), and the last exchanges for the
// reports. A report is rendered from those, never by judging again; the judging itself yields to
// the event loop every few milliseconds, so it never holds up the traffic it judges.
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { judgeCheck, type Finding, type OperationResult } from '../check.ts';
import { parseBody, type Exchange, type UnansweredRequest } from '../http/exchange.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import { responseOf } from '../http/transport.ts';
import { addJudgements, coverageFromCounts, type CoverageRow, type RuleCounts } from '../model/coverage.ts';
import type { Judgement } from '../model/judgement.ts';
import { learnUnanswered } from '../model/judgeRate.ts';
import { emptyState, type ModelState } from '../model/modelState.ts';
import { viewRequest } from '../model/requestView.ts';
import { judgeGroupSteps, type ModelItem } from '../model/runModel.ts';
import { assembleRunReport, checkStatus, summarizeExchange, summarizeUnanswered, type CheckReport, type ExchangeSummary, type RunReport, type UnansweredSummary, type Verdict } from '../runReport.ts';
import { SpecValidators } from '../specValidators.ts';
import { categoriesIn, classifyRequest } from './classifyRequest.ts';
import { bearerSecret, ClientKeys, maxRefusedKeys, redactDeep } from './clientKeys.ts';
import { proxyChecks } from './proxyChecks.ts';
import { keptHeaders, own } from './keptText.ts';
import { EvidenceBudget, mergeOperations, ProxyOutcomes } from './proxyOutcomes.ts';
import type { ProxyRecord } from './proxyRecord.ts';

export interface ProxyJudgeSettings {
  spec: LoadedSpec;
  validators?: SpecValidators;
  /** The deployment's base URL (`https://staging.example/v1`): requests outside its path are forwarded, not judged. */
  target: string;
  /** Others use the keys beside the proxy: rate accounting judges only what still holds. */
  sharedKey: boolean;
  startedAt: number;
  runId?: string;
  /** Exchanges kept for the reports, the last ones (default 10,000): every exchange is judged, kept or not. */
  maxRetained?: number;
  /** Characters of headers and bodies the exchanges kept for the reports may hold in all (default 64 Mi). */
  maxRetainedBytes?: number;
  /**
   * How long an exchange may stay open before the judge stops waiting for it (default 30 s): the
   * exchanges after it are judged without it, and it is counted as not judged.
   */
  maxWaitMs?: number;
  /** How long one slice of judging may hold the thread before it lets the traffic through (default 4 ms). */
  sliceMs?: number;
  /** Told of each failure as it is judged, with the exchange it is on (a drift run pairs answers by it). */
  onFailure?: (seq: number, rule: string) => void;
}

/** A proxy finding as `GET /__proxy/report` gives it. */
export interface ProxyFinding {
  check: string;
  rule: string;
  level: 'failure' | 'warning';
  /** The contract's sentence the finding rests on. */
  quote: string;
  message: string;
  occurrences: number;
  exchange?: { method: string; path: string; status: number };
}

/** What the proxy judged: the suite's report, and its findings as the live report lists them. */
export interface ProxyVerdict {
  report: RunReport;
  findings: ProxyFinding[];
}

/** `GET /__proxy/report`: the findings so far, rendered from what the judge keeps. */
export interface LiveReport {
  verdict: Verdict;
  reason?: string;
  /** Every exchange forwarded so far. */
  exchanges: number;
  /** Exchanges judged (answered, under the target's path). */
  judged: number;
  /** Forwarded but never to be judged: past the proxy's memory budget, or open too long. */
  unjudged: number;
  /** Forwarded and not judged yet: still open, or after one that is. */
  waiting: number;
  /** Exchanges kept for the reports, and how many judged ones no longer are (only the last are kept). */
  kept: number;
  dropped: number;
  /** Requests the proxy answered itself (431, 408, 400), never forwarded. */
  refused: number;
  findings: ProxyFinding[];
  notes: string[];
}

/** What one stream of judged exchanges adds up to. */
interface Tally {
  judged: number;
  withKey: number;
  unavailable: number;
  unanswered: number;
  firstError?: string;
  ofOperation: Map<string, number>;
  rules: RuleCounts;
}

const newTally = (): Tally => ({ judged: 0, withKey: 0, unavailable: 0, unanswered: 0, ofOperation: new Map(), rules: new Map() });

/**
 * The requests of a key the deployment has not accepted yet: judged apart, and reported only while
 * it never has. Once it accepts the key, what came before is dropped: the proxy cannot tell a key
 * created meanwhile from one wrongly refused.
 */
interface RefusedKey {
  outcomes: ProxyOutcomes[];
  state: ModelState;
  tally: Tally;
  requests: number;
}

/** The requests of one refused key that are judged at most; more are counted. */
const judgedPerRefusedKey = 100;

interface Kept {
  seq: number;
  /** The refused key whose requests it is one of: not reported once that key is accepted. */
  secret?: string;
  exchange?: ExchangeSummary;
  unanswered?: UnansweredSummary;
  size: number;
}

type Span = NonNullable<ProxyRecord['span']>;

export class ProxyJudge {
  readonly #validators: SpecValidators;
  readonly #basePath: string;
  readonly #origin: string;
  readonly #keys = new ClientKeys(maxRefusedKeys);
  readonly #maxRetained: number;
  readonly #maxRetainedBytes: number;
  readonly #maxWaitMs: number;
  readonly #sliceMs: number;
  readonly #runId: string;

  // The stream in arrival order.
  readonly #arrivals = new Map<number, number>();
  /** Exchanges ended and not judged yet; `release` lets go of what the proxy counts them as holding. */
  readonly #ended = new Map<number, { record: ProxyRecord; dropped: boolean; release: () => void }>();
  readonly #late = new Set<number>();
  #next = 1;
  #arrivedMax = 0;
  #endedMax = 0;

  // The model and the checks.
  readonly #state = emptyState();
  /** What all findings' evidence may hold, shared by every check's outcomes. */
  readonly #evidence = new EvidenceBudget();
  readonly #outcomes = proxyChecks.map((check) => new ProxyOutcomes(check.operations, this.#evidence));
  readonly #tally = newTally();
  readonly #categories = new Set<string>();
  readonly #throttled = new Set<string>();
  readonly #refused = new Map<string, RefusedKey>();
  #group: { exchange: Exchange; span: Span; release: () => void }[] = [];
  #groupEnd = -Infinity;
  #bursts = 0;
  /** Requests that got no answer since the last exchange: the ledgers allow for them before it is judged. */
  #unlearned: Record<string, string>[] = [];
  #lastSeq = 0;

  // What was not judged, and why.
  #outside = 0;
  #outsideWithKey = 0;
  #beforeAccepted = 0;
  #unjudged = 0;
  #refusedByProxy = 0;
  #overBudget = 0;
  #lateCount = 0;
  #untracked = 0;
  #overRefused = 0;
  /** Past this request, rate-limit accounting judges only what holds whoever else spends the window. */
  #unseenFrom: number | undefined;

  // What is kept for the reports: a ring, the oldest dropped first.
  #kept: Kept[] = [];
  #keptHead = 0;
  #keptSize = 0;
  #dropped = 0;

  // The pump.
  #running: Promise<void> | undefined;
  #sliceStart = 0;
  #wake: NodeJS.Timeout | undefined;
  #waiters: { upTo: number; run: () => void }[] = [];
  /** Where a judge threw (a bug): shown in the notes. */
  #failures: string[] = [];

  constructor(readonly settings: ProxyJudgeSettings) {
    this.#validators = settings.validators ?? new SpecValidators(settings.spec);
    this.#basePath = new URL(settings.target).pathname.replace(/\/+$/, '');
    this.#origin = new URL(settings.target).origin;
    this.#maxRetained = settings.maxRetained ?? 10_000;
    this.#maxRetainedBytes = settings.maxRetainedBytes ?? 64 * 1024 * 1024;
    this.#maxWaitMs = settings.maxWaitMs ?? 30_000;
    this.#sliceMs = settings.sliceMs ?? 4;
    this.#runId = settings.runId ?? randomUUID();
  }

  /** A request reached the proxy: `seq` in arrival order, `from` on the monotonic clock. */
  arrived(seq: number, from: number): void {
    this.#arrivals.set(seq, from);
    this.#arrivedMax = Math.max(this.#arrivedMax, seq);
  }

  /**
   * Its exchange ended (in any order): judged once every request before it has ended too.
   * `dropped`: forwarded past the memory budget, counted and not judged.
   */
  ended(record: ProxyRecord, dropped = false, release: () => void = () => {}): void {
    if (record.seq < this.#next) {
      // It stayed open so long that the exchanges after it were judged without it.
      this.#late.delete(record.seq);
      release();
      return;
    }
    this.#ended.set(record.seq, { record, dropped, release });
    this.#endedMax = Math.max(this.#endedMax, record.seq);
    this.#kick();
  }

  /** Exchanges forwarded so far (that the judge was told of). */
  get forwarded(): number {
    return Math.max(this.#arrivedMax, this.#endedMax);
  }

  /** Forwarded and not judged yet. */
  get waiting(): number {
    return Math.max(0, this.forwarded - this.#next + 1) + this.#group.length;
  }

  /** A request the proxy answered itself (431, 408, 400): never forwarded, counted in the report. */
  refusedByProxy(): void {
    this.#refusedByProxy++;
  }

  get refused(): number {
    return this.#refusedByProxy;
  }

  /** Exchanges judged and no longer kept for the reports (only the last are kept). */
  get dropped(): number {
    return this.#dropped;
  }

  get kept(): number {
    return this.#kept.length - this.#keptHead;
  }

  /** Characters held by the exchanges kept for the reports. */
  get keptSize(): number {
    return this.#keptSize;
  }

  /**
   * The findings so far, once every exchange that had ended when asked is judged, rendered from
   * what the judge keeps: nothing is judged again for it.
   */
  live(): Promise<LiveReport> {
    return this.#whenJudged(() => {
      const { checks, tally } = this.#results();
      const { verdict, reason } = this.#verdict(checks, tally);
      const findings = redactDeep(findingsOf(checks), (text) => this.#keys.redact(text));
      return { verdict, ...(reason !== undefined ? { reason } : {}), exchanges: this.forwarded, judged: tally.judged, unjudged: this.#unjudged, waiting: this.waiting, kept: this.kept, dropped: this.#dropped, refused: this.#refusedByProxy, findings, notes: this.#notes() };
    });
  }

  /** The suite's report of the traffic so far, with the exchanges kept, and the findings. */
  async verdict(now = Date.now()): Promise<ProxyVerdict> {
    const snapshot = await this.#whenJudged(() => ({ ...this.#results(), kept: this.#kept.slice(this.#keptHead), notes: this.#notes(), sharedKey: this.#sharedKey(), forwarded: this.forwarded }));
    const { checks, tally, kept, notes, sharedKey, forwarded } = snapshot;
    const { verdict, reason } = this.#verdict(checks, tally);
    const redact = (text: string) => this.#keys.redact(text);
    const exchanges: ExchangeSummary[] = [];
    const unanswered: UnansweredSummary[] = [];
    // Bounded by the ring, and redacted a slice at a time.
    for (const [i, entry] of kept.entries()) {
      if (entry.secret !== undefined && !this.#refused.has(entry.secret)) continue;
      if (entry.exchange) exchanges.push(redactDeep(entry.exchange, redact));
      if (entry.unanswered) unanswered.push(redactDeep(entry.unanswered, redact));
      if (i % 256 === 255) await nextTurn();
    }
    exchanges.sort((a, b) => a.seq - b.seq);
    const coverage: CoverageRow[] = coverageFromCounts(tally.rules, checks, { probeRateLimit: false, readOnly: false, secondKey: false, sharedKey });
    const report = assembleRunReport({
      runId: this.#runId,
      baseUrl: this.settings.target,
      startedAt: this.settings.startedAt,
      durationMs: now - this.settings.startedAt,
      verdict,
      ...(reason !== undefined ? { reason } : {}),
      options: { readOnly: true, probeRateLimit: false, seed: 0, depth: 'proxy', checks: checks.map((c) => c.id), sharedKey: this.settings.sharedKey },
      requests: { total: forwarded, withKey: tally.withKey, withoutKey: tally.judged - tally.withKey, retried: 0, failedAtTransport: tally.unanswered },
      notes,
      checks: redactDeep(checks, redact),
      coverage,
      exchanges,
      unanswered,
    });
    return { report, findings: redactDeep(findingsOf(checks), redact) };
  }

  // --- Rendering --------------------------------------------------------------------------------

  /** The checks' verdicts and the counts: the main stream's, and those of the keys never accepted. */
  #results(): { checks: CheckReport[]; tally: Tally } {
    const layers = [...this.#refused.values()];
    const checks = proxyChecks.map((check, i): CheckReport => {
      let operations: OperationResult[] = this.#outcomes[i]!.results();
      for (const layer of layers) operations = mergeOperations(operations, layer.outcomes[i]!.results());
      return { id: check.id, title: check.title, severity: check.severity, description: check.description, status: checkStatus(operations), operations, durationMs: 0 };
    });
    const tally = newTally();
    for (const one of [this.#tally, ...layers.map((l) => l.tally)]) {
      tally.judged += one.judged;
      tally.withKey += one.withKey;
      tally.unavailable += one.unavailable;
      tally.unanswered += one.unanswered;
      tally.firstError ??= one.firstError;
      for (const [op, n] of one.ofOperation) tally.ofOperation.set(op, (tally.ofOperation.get(op) ?? 0) + n);
      for (const [key, n] of one.rules) {
        const had = tally.rules.get(key) ?? { exchanges: 0, failures: 0 };
        tally.rules.set(key, { exchanges: had.exchanges + n.exchanges, failures: had.failures + n.failures });
      }
    }
    return { checks, tally };
  }

  #verdict(checks: readonly CheckReport[], tally: Tally): { verdict: Verdict; reason?: string } {
    const target = this.settings.target;
    if (tally.judged === 0 && tally.unanswered > 0) {
      return { verdict: 'cannot-run', reason: `nothing could be judged: the deployment answered none of the ${tally.unanswered} ${tally.unanswered === 1 ? 'request' : 'requests'} under ${target} (${tally.firstError}).` };
    }
    if (tally.judged === 0) {
      const forwarded = this.forwarded;
      return { verdict: 'cannot-run', reason: `nothing could be judged: no exchange under ${target} went through the proxy${forwarded > 0 ? ` (of ${forwarded} forwarded)` : ''}. Point the clients at the proxy, under the base URL's path.` };
    }
    if (tally.unavailable * 2 > tally.judged) {
      return { verdict: 'cannot-run', reason: `the deployment was unavailable (${tally.unavailable} of ${tally.judged} answers 502, 503 or 504), so its traffic cannot judge it.` };
    }
    return { verdict: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed' };
  }

  #notes(): string[] {
    const base = this.#basePath || '/';
    const notes: string[] = [];
    if (this.settings.sharedKey) notes.push('Others may use the keys beside the proxy (--shared-key): rate-limit accounting judged only what holds whoever else spends the window.');
    else if (this.#unseenFrom !== undefined) {
      const unseen = [...(this.#unjudged > 0 ? [`${this.#unjudged} unjudged`] : []), ...(this.#outsideWithKey > 0 ? [`${this.#outsideWithKey} outside ${base} with credentials`] : [])];
      notes.push(`From request #${this.#unseenFrom} on, rate-limit accounting judged only what holds whoever else spends the window, as with --shared-key: requests the proxy forwarded but did not judge (${unseen.join(', ')}) may have spent it.`);
    } else notes.push('Each key is assumed to reach the deployment only through this proxy: rate-limit accounting counts every request with it. Give --shared-key when other clients use the same keys directly.');
    if (this.#outside > 0) notes.push(`${this.#outside} ${this.#outside === 1 ? 'request' : 'requests'} outside ${base} went through unjudged: the contract covers the API under its base URL only.`);
    if (this.#beforeAccepted > 0) notes.push(`${this.#beforeAccepted} ${this.#beforeAccepted === 1 ? 'request' : 'requests'} with a key sent before the deployment first accepted that key were not judged: the proxy cannot tell a key created meanwhile from one wrongly refused.`);
    if (this.#overBudget > 0) notes.push(`${this.#overBudget} ${this.#overBudget === 1 ? 'exchange' : 'exchanges'} past the proxy's memory budget were forwarded but not judged.`);
    if (this.#lateCount > 0) notes.push(`${this.#lateCount} ${this.#lateCount === 1 ? 'exchange' : 'exchanges'} open longer than ${Math.round(this.#maxWaitMs / 1000)} s were forwarded but not judged: the exchanges after ${this.#lateCount === 1 ? 'it were' : 'them were'} judged without waiting for ${this.#lateCount === 1 ? 'it' : 'them'}.`);
    if (this.#untracked + this.#overRefused > 0) notes.push(`${this.#untracked + this.#overRefused} requests with keys the deployment never accepted were forwarded but not judged: the proxy judges at most ${judgedPerRefusedKey} requests of each of ${maxRefusedKeys} such keys.`);
    if (this.#dropped > 0) notes.push(`${this.#dropped} earlier exchanges were judged but are not listed: the reports keep the last ${this.#maxRetained.toLocaleString('en-US')} (at most ${Math.round(this.#maxRetainedBytes / 2 ** 20)} MiB of headers and bodies).`);
    if (this.#refusedByProxy > 0) notes.push(`${this.#refusedByProxy} ${this.#refusedByProxy === 1 ? 'request' : 'requests'} the proxy could not read (a header section past its caps, a request not sent in time, not HTTP) ${this.#refusedByProxy === 1 ? 'was' : 'were'} answered by the proxy itself with an Error (431, 408 or 400) and never reached the deployment.`);
    if (this.#failures.length > 0) notes.push(`The proxy's judges failed on ${this.#failures.length} exchanges, which are counted as not judged (a bug: please report it): ${this.#failures.slice(0, 3).join('; ')}.`);
    if (this.waiting > 0) notes.push(`${this.waiting} forwarded exchanges are not judged yet: still open, or after one that is; they are judged once it ends.`);
    return notes;
  }

  #sharedKey(): boolean {
    return this.settings.sharedKey || this.#unseenFrom !== undefined;
  }

  // --- The pump ---------------------------------------------------------------------------------

  /**
   * Runs `render` once every exchange that had ended when asked (and every one before it) is
   * judged, between two exchanges, never in the middle of one.
   */
  #whenJudged<T>(render: () => T): Promise<T> {
    let upTo = this.#next - 1;
    while (this.#ended.has(upTo + 1)) upTo++;
    return new Promise<T>((resolve, reject) => {
      this.#waiters.push({
        upTo,
        run: () => {
          try {
            resolve(render());
          } catch (error) {
            reject(error);
          }
        },
      });
      this.#kick();
    });
  }

  #serveWaiters(idle: boolean): void {
    // Due once every exchange up to its mark is judged: taken in, and not in the open group.
    const openFrom = this.#group[0]?.exchange.seq ?? Infinity;
    const due = this.#waiters.filter((w) => idle || (w.upTo < this.#next && w.upTo < openFrom));
    if (due.length === 0) return;
    this.#waiters = this.#waiters.filter((w) => !due.includes(w));
    for (const waiter of due) waiter.run();
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = this.#pump().then(() => {
      this.#running = undefined;
      if (this.#ended.has(this.#next)) this.#kick();
    });
  }

  async #pump(): Promise<void> {
    this.#sliceStart = performance.now();
    for (;;) {
      this.#serveWaiters(false);
      const next = this.#takeNext();
      if (!next) break;
      let released = false;
      const release = () => {
        if (!released) next.release();
        released = true;
      };
      await this.#guarded(next.record.seq, () => this.#intake(next.record, next.dropped, release));
      // What joined the open group is let go when the group is judged; the rest now.
      if (!this.#group.some((g) => g.release === release)) release();
    }
    // Nothing is open: no later request can be in flight with the last group, so it is judged now.
    if (this.#group.length > 0 && this.#next > this.#arrivedMax) await this.#guarded(this.#group[0]!.exchange.seq, () => this.#judgeGroup());
    this.#serveWaiters(true);
  }

  /** A judge that throws is a bug: the traffic goes on, the rest is judged, and the report says where. */
  async #guarded(seq: number, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.#unjudged++;
      this.#failures.push(`request #${seq}: ${(error as Error).message}`);
    }
  }

  /** The next exchange in arrival order, once it has ended; past one open too long. */
  #takeNext(): { record: ProxyRecord; dropped: boolean; release: () => void } | undefined {
    for (;;) {
      const ended = this.#ended.get(this.#next);
      if (ended) {
        this.#ended.delete(this.#next);
        this.#arrivals.delete(this.#next++);
        return ended;
      }
      const from = this.#arrivals.get(this.#next);
      if (from === undefined) {
        // A number no request was given (records handed over in one batch): skipped.
        if (this.#next < this.#endedMax) {
          this.#next++;
          continue;
        }
        return undefined;
      }
      const openFor = performance.now() - from;
      if (openFor < this.#maxWaitMs) {
        if (this.#ended.size > 0 && !this.#wake) {
          this.#wake = setTimeout(() => {
            this.#wake = undefined;
            this.#kick();
          }, this.#maxWaitMs - openFor + 1).unref();
        }
        return undefined;
      }
      this.#late.add(this.#next);
      this.#unjudged++;
      this.#lateCount++;
      this.#unseenFrom ??= this.#next;
      this.#arrivals.delete(this.#next++);
    }
  }

  /** Lets the traffic through once this slice has held the thread long enough. */
  async #checkpoint(): Promise<void> {
    if (performance.now() - this.#sliceStart < this.#sliceMs) return;
    await nextTurn();
    this.#sliceStart = performance.now();
  }

  // --- Judging ----------------------------------------------------------------------------------

  async #intake(record: ProxyRecord, dropped: boolean, release: () => void): Promise<void> {
    if (dropped) {
      this.#unjudged++;
      this.#overBudget++;
      this.#unseenFrom ??= record.seq;
      return;
    }
    const authorization = record.requestHeaders.authorization;
    const secret = bearerSecret(authorization);
    const status = record.response?.status;
    // A key is accepted by its first answer other than 401 or 403, wherever it went.
    const key = secret === undefined ? undefined : this.#keys.see(secret, status !== undefined && status !== 401 && status !== 403);
    if (key?.acceptedNow) this.#accepted(secret!);
    const url = record.url;
    if (url !== this.#basePath && !url.startsWith(`${this.#basePath}/`) && !url.startsWith(`${this.#basePath}?`)) {
      this.#outside++;
      if (authorization !== undefined) {
        this.#outsideWithKey++;
        this.#unseenFrom ??= record.seq;
      }
      return;
    }
    if (secret !== undefined && !key?.accepted) {
      if (!key) this.#untracked++;
      else await this.#judgeRefused(secret, record);
      return;
    }
    const request = this.#requestOf(record);
    if (!record.response) {
      // The ledgers read only whose key it was: the rest of its head is not kept for them.
      this.#unlearned.push(request.headers.authorization === undefined ? {} : { authorization: request.headers.authorization });
      this.#tally.unanswered++;
      this.#tally.firstError ??= record.error ?? 'no answer';
      this.#keep({ seq: record.seq, unanswered: keptUnanswered(this.#unansweredOf(record, request), record.headersCut) });
      return;
    }
    const exchange = this.#exchangeOf(record, record.response, request, this.#categories);
    this.#markThrottled(exchange);
    for (const id of categoriesIn(exchange.operationId, exchange.response.status, exchange.response.value)) this.#categories.add(id);
    this.#keep({ seq: record.seq, exchange: keptExchange(exchange) });
    this.#lastSeq = record.seq;
    const span = record.span ?? { from: record.sentAt, to: record.sentAt + record.response.durationMs };
    // Requests in flight together are a burst, as the suite marks its own parallel requests: the
    // deployment may have served them in another order than they arrived, so the model judges
    // them as one group. Only a request that arrived after every earlier answer had ended can
    // have been counted after them; one that arrived as an answer ended may have been counted before it.
    // Requests that got no answer since the last exchange may have been counted before it: the
    // ledgers allow for them before the group they follow is judged, as the suite's own run does.
    for (const headers of this.#unlearned.splice(0)) learnUnanswered(headers, this.#state);
    if (span.from > this.#groupEnd) await this.#judgeGroup();
    this.#group.push({ exchange, span, release });
    this.#groupEnd = Math.max(this.#groupEnd, span.to);
    await this.#checkpoint();
  }

  /** Judges the open group: the model's rules, then every check, a few exchanges at a time. */
  async #judgeGroup(): Promise<void> {
    const open = this.#group;
    const group = open.map((g) => g.exchange);
    this.#group = [];
    if (group.length === 0) return;
    try {
      await this.#judge(group);
    } finally {
      for (const { release } of open) release();
    }
  }

  async #judge(group: Exchange[]): Promise<void> {
    if (group.length > 1) {
      this.#bursts++;
      for (const exchange of group) exchange.burst = this.#bursts;
    }
    const items: ModelItem[] = group.map((exchange) => ({ exchange, view: viewRequest(exchange) }));
    const judgements: Judgement[] = [];
    for (const step of judgeGroupSteps(items, this.#state, { sharedKey: this.#sharedKey(), validators: this.#validators })) {
      judgements.push(...step);
      await this.#checkpoint();
    }
    await this.#runChecks(group, judgements, this.#outcomes, this.#tally, this.#state);
  }

  async #runChecks(group: Exchange[], judgements: readonly Judgement[], outcomes: readonly ProxyOutcomes[], tally: Tally, state: ModelState): Promise<void> {
    addJudgements(tally.rules, judgements);
    for (const exchange of group) {
      tally.judged++;
      if (exchange.bucket !== 'anonymous') tally.withKey++;
      if (isUnavailable(exchange.response.status)) tally.unavailable++;
      tally.ofOperation.set(exchange.operationId, (tally.ofOperation.get(exchange.operationId) ?? 0) + 1);
    }
    // Every check reports the model's judgements of its rules on this group: nothing is judged again.
    const input = { validators: this.#validators, knownPets: [], probeMaxRequests: 0, exchanges: group, model: { judgements, state }, connections: [], unanswered: [] };
    const told = this.settings.onFailure;
    const tell = (found: readonly Judgement[]) => {
      for (const j of found) if (j.outcome === 'failure' && j.exchange !== undefined) told?.(j.exchange.seq, j.rule);
    };
    tell(judgements);
    for (const [i, check] of proxyChecks.entries()) {
      tell(judgeCheck(check, input, outcomes[i]!));
      await this.#checkpoint();
    }
  }

  /** A request with a key the deployment has not accepted (yet): judged apart, as a wrong key's. */
  async #judgeRefused(secret: string, record: ProxyRecord): Promise<void> {
    let layer = this.#refused.get(secret);
    if (!layer) this.#refused.set(secret, (layer = { outcomes: proxyChecks.map((check) => new ProxyOutcomes(check.operations, this.#evidence)), state: emptyState(), tally: newTally(), requests: 0 }));
    layer.requests++;
    if (layer.tally.judged + layer.tally.unanswered >= judgedPerRefusedKey) {
      this.#overRefused++;
      return;
    }
    const request = this.#requestOf(record);
    if (!record.response) {
      layer.tally.unanswered++;
      layer.tally.firstError ??= record.error ?? 'no answer';
      this.#keep({ seq: record.seq, secret, unanswered: keptUnanswered(this.#unansweredOf(record, request), record.headersCut) });
      return;
    }
    const exchange = this.#exchangeOf(record, record.response, request, this.#categories);
    this.#keep({ seq: record.seq, secret, exchange: keptExchange(exchange) });
    const judgements: Judgement[] = [];
    for (const step of judgeGroupSteps([{ exchange, view: viewRequest(exchange) }], layer.state, { sharedKey: this.#sharedKey(), validators: this.#validators })) judgements.push(...step);
    await this.#runChecks([exchange], judgements, layer.outcomes, layer.tally, layer.state);
  }

  /** The deployment accepted a key it had refused: what came before with it is not judged. */
  #accepted(secret: string): void {
    const layer = this.#refused.get(secret);
    if (!layer) return;
    this.#refused.delete(secret);
    for (const outcomes of layer.outcomes) outcomes.release();
    this.#beforeAccepted += layer.requests;
    this.#overRefused -= Math.max(0, layer.requests - judgedPerRefusedKey);
    const kept = this.#kept.slice(this.#keptHead);
    const stays = kept.filter((k) => k.secret !== secret);
    for (const gone of kept) if (gone.secret === secret) this.#keptSize -= gone.size;
    this.#kept = stays;
    this.#keptHead = 0;
  }

  /**
   * A key's requests after a 429, until the deployment serves that key again, are held to what the
   * suite holds its own requests past a 429 to: "Repeated requests after a 429 response may lead to
   * a temporary ban of the API key", and the contract does not show the ban's answer, so a status it
   * does not document there is a warning, not a failure.
   */
  #markThrottled(exchange: Exchange): void {
    const key = viewRequest(exchange).credential;
    if (key.kind !== 'key') return;
    const { status } = exchange.response;
    if (this.#throttled.has(key.key) && exchange.intent === 'valid') exchange.intent = 'over-limit';
    if (status === 429) this.#throttled.add(key.key);
    else if (status < 400) this.#throttled.delete(key.key);
  }

  #keep(entry: Omit<Kept, 'size'>): void {
    const size = sizeOf(entry.exchange ?? entry.unanswered!);
    this.#kept.push({ ...entry, size });
    this.#keptSize += size;
    while (this.kept > this.#maxRetained || (this.#keptSize > this.#maxRetainedBytes && this.kept > 0)) {
      this.#keptSize -= this.#kept[this.#keptHead]!.size;
      this.#kept[this.#keptHead++] = undefined as unknown as Kept;
      this.#dropped++;
    }
    if (this.#keptHead > 1024 && this.#keptHead * 2 > this.#kept.length) {
      this.#kept = this.#kept.slice(this.#keptHead);
      this.#keptHead = 0;
    }
  }

  /**
   * The request as the judges read it: as it came, but for the key, which becomes its name
   * (`$CLIENT_KEY_1`), for the model tells keys apart by it. Everything else is redacted when a
   * report is rendered, with every key seen by then.
   */
  #requestOf(record: ProxyRecord): Exchange['request'] {
    const headers = { ...record.requestHeaders };
    if (headers.authorization !== undefined) headers.authorization = this.#keys.authorization(headers.authorization);
    return { method: record.method, url: `${this.#origin}${record.url}`, headers, ...(record.requestBody !== undefined ? { body: record.requestBody } : {}) };
  }

  #unansweredOf(record: ProxyRecord, request: Exchange['request']): UnansweredRequest {
    return { checkId: 'proxy', operationId: 'unlisted', afterSeq: this.#lastSeq, sentAt: record.sentAt, durationMs: 0, request, error: record.error ?? 'no answer' };
  }

  #exchangeOf(record: ProxyRecord, answer: NonNullable<ProxyRecord['response']>, request: Exchange['request'], categories: ReadonlySet<string>): Exchange {
    const path = request.url.slice(this.#origin.length + this.#basePath.length) || '/';
    const grouped: Record<string, string[]> = {};
    for (const [name, value] of answer.rawHeaders) (grouped[name] ??= []).push(value);
    const response = responseOf(answer.status, grouped, answer.bytes, answer.truncated ?? false);
    const view = viewRequest({ path, request });
    return {
      seq: record.seq,
      checkId: 'proxy',
      operationId: view.operation ?? 'unlisted',
      intent: classifyRequest(view, this.#validators, { categories }, { status: response.status, headers: response.headers }),
      path,
      bucket: view.credential.kind === 'key' ? 'key' : 'anonymous',
      sentAt: record.sentAt,
      request,
      response: { ...response, ...(answer.incomplete !== undefined ? { incomplete: answer.incomplete } : {}), ...parseBody(response.body), durationMs: answer.durationMs },
      retries: 0,
    };
  }
}

/** The findings of the checks as the live report lists them. */
function findingsOf(checks: readonly CheckReport[]): ProxyFinding[] {
  return checks.flatMap((check) =>
    check.operations.flatMap((op) =>
      op.findings.map((f: Finding): ProxyFinding => {
        const url = f.evidence ? new URL(f.evidence.request.url) : undefined;
        return {
          check: check.id,
          rule: f.rule?.id ?? check.id,
          level: f.level,
          quote: f.rule?.quote ?? check.title,
          message: f.message,
          occurrences: f.occurrences,
          ...(f.evidence ? { exchange: { method: f.evidence.request.method, path: url!.pathname + url!.search, status: f.evidence.response.status } } : {}),
        };
      }),
    ),
  );
}

/**
 * What the reports keep of an exchange: the summary, its bodies capped, its header values capped,
 * every string cut from a longer one a copy of its own (a slice of a 4 MiB body would keep the
 * whole body alive).
 */
function keptExchange(exchange: Exchange): ExchangeSummary {
  const summary = summarizeExchange(exchange);
  return {
    ...summary,
    requestHeaders: keptHeaders(summary.requestHeaders),
    responseHeaders: keptHeaders(summary.responseHeaders),
    ...(summary.requestBody ? { requestBody: keptBody(summary.requestBody) } : {}),
    responseBody: keptBody(summary.responseBody),
  };
}

function keptUnanswered(request: UnansweredRequest, headersCut = false): UnansweredSummary {
  const summary = summarizeUnanswered(request);
  return { ...summary, requestHeaders: headersCut ? summary.requestHeaders : keptHeaders(summary.requestHeaders), ...(summary.requestBody ? { requestBody: keptBody(summary.requestBody) } : {}) };
}

const keptBody = <T extends { text: string; truncated: boolean }>(body: T): T => (body.truncated ? { ...body, text: own(body.text) } : body);

function sizeOf(summary: ExchangeSummary | UnansweredSummary): number {
  let size = summary.url.length + 64;
  for (const [name, value] of Object.entries(summary.requestHeaders)) size += name.length + value.length;
  if ('responseHeaders' in summary) for (const [name, value] of Object.entries(summary.responseHeaders)) size += name.length + value.length;
  size += summary.requestBody?.text.length ?? 0;
  if ('responseBody' in summary) size += summary.responseBody.text.length;
  return size;
}
