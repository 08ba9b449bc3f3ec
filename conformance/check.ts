import { unjudgeable } from './model/judgeable.ts';
import type { ApiRequest, Exchange, UnansweredRequest, WireConnection } from './http/exchange.ts';
import type { WirePlan } from './http/wireExchanges.ts';
import type { LoadedSpec } from '../spec/loadSpec.ts';
import type { SpecValidators } from './specValidators.ts';
import { curlCommand } from './http/curlCommand.ts';
import type { ModelVerdict } from './model/runModel.ts';
import type { Judgement } from './model/judgement.ts';
import { rules, type Rule, type RuleId } from './model/rules.ts';
import type { KnownPet, RunFacts } from './model/runFacts.ts';

export type { KnownPet } from './model/runFacts.ts';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface Evidence {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; bodyExcerpt: string };
  /** Reproduces the request; the key reads `$PETS_API_KEY`. */
  curl: string;
}

export interface Finding {
  /** A failure fails the run; a warning is reported and does not. */
  level: 'failure' | 'warning';
  message: string;
  /** The generated case the finding is about, e.g. `create-pet/body/categoryId/float`. */
  case?: string;
  evidence?: Evidence;
  /** How many answers showed the same problem; the evidence is the first. */
  occurrences: number;
  /** The model's rule the finding breaks, and the contract's words it rests on. */
  rule?: { id: string; quote: string };
  /** Other exchanges the verdict rests on (an earlier read, the previous window), by seq. */
  related?: number[];
  /** The answer fields it is about, by name in a Pet or an Error, when not the whole answer (for `--usage`). */
  fields?: string[];
}

export interface OperationResult {
  operationId: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped. */
  reason?: string;
  findings: Finding[];
  /** Cases that could not be judged (a transport error, a 429, the run's own key refused), with why. */
  inconclusive?: Inconclusive[];
  /** The generated cases the check sent on the operation (and those it could not send), in order, each with its verdict. */
  cases?: CaseResult[];
}

/** A generated case a check sent, or could not send, with the verdict the run gave it. */
export interface CaseResult {
  case: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped: its answer could not judge it, or the check did not apply. */
  reason?: string;
  /** How long its requests took, tries that got no answer included. */
  durationMs: number;
}

/**
 * A part of a check planned as a count (the generated traffic's `sequences`): how many ran, and why
 * not all did. One that ran none of a planned count judged nothing, which is no pass.
 */
export interface PlannedPart {
  part: string;
  ran: number;
  planned: number;
  reason?: string;
}

/** A case that could not be judged: the reports show it as a skipped test with the reason. */
export interface Inconclusive {
  /** The generated case, e.g. `list-pets/query/limit/float`; absent for what no single case covers. */
  case?: string;
  reason: string;
}

/** `list-pets/query/limit/float: no answer`: an inconclusive case as one line. */
const inconclusiveLine = (i: Inconclusive) => (i.case !== undefined ? `${i.case}: ${i.reason}` : i.reason);

/** How many generated cases a run sends: `quick` exercises every rule once; `full` adds variety; a number sets how many generated sequences run. */
export type Depth = 'quick' | 'full' | number;

export interface RunOptions {
  readOnly: boolean;
  depth: Depth;
  probeRateLimit: boolean;
  /** The most requests the rate-limit probe may spend to reach a 429. */
  probeMaxRequests: number;
  seed: number;
  /** Others may use the key during the run (`--shared-key`): rate accounting judges only what still holds. */
  sharedKey?: boolean;
}

/** The shortest failing sequence the generator found, as a script that sends it again. */
export interface Reproduction {
  /** The rules its answers broke. */
  rules: string[];
  /** The sequence's commands, as generated (after shrinking). */
  commands: unknown[];
  /** How many requests the first failing sequence sent, and the shrunk one. */
  requests: { original: number; shrunk: number };
  /** The seqs of the shrunk sequence's exchanges, in the run's record. */
  exchanges: number[];
  /** A bash script of curl commands, the key read from `$PETS_API_KEY`. */
  curl: string;
}

/** What a check may use: it never learns whether it talks to a live URL or an in-process app. */
export interface CheckContext {
  spec: LoadedSpec;
  options: RunOptions;
  validators: SpecValidators;
  /** The run's key, for checks that must present it wrongly; evidence shows it as `$PETS_API_KEY`. */
  apiKey: string;
  /**
   * Sends a request on behalf of the running check. Undefined when it got no answer that can be
   * judged (the transport failed after its retries, or the quota is spent): the case is recorded
   * as inconclusive on the check's outcomes, never as passed or failed.
   */
  send(request: ApiRequest, options?: { expect429?: boolean }): Promise<Exchange | undefined>;
  /** For passive checks: every exchange of the run so far, in order. Active checks judge only what they sent. */
  readonly exchanges: readonly Exchange[];
  /** The pets the preflight's plain `GET /pets` listed: a baseline every check gets, whichever run. */
  knownPets(): KnownPet[];
  /** The path of a known pet, `/pets/{id}`, with its id exact even above 2^53. */
  petPath(pet: KnownPet): string;
  /** The run's seeded random numbers in [0, 1). */
  random(): number;
  /**
   * A mark of this run alone (from its run id), for names that must be unique beyond the run: two
   * runs with one seed would otherwise create the same "only once" name against one deployment.
   */
  runMark: string;
  /**
   * Waits `ms` on the run's clock, saying `why` (`to …`) in the run's notes (and that it did not, and why);
   * false, without waiting, when that would pass the run's time budget or the longest wait (`--max-wait`).
   */
  waitFor(ms: number, why: string): Promise<boolean>;
  /** What the last answer said of the key's quota (or the second key's). */
  keyQuota(which?: 'key' | 'key2'): { limit?: number; remaining?: number; resetAt?: number };
  /** How many requests without a valid key the run has sent so far. */
  keylessSent(): number;
  /** What the last answer to a request without a valid key said of the client's anonymous quota. */
  anonymousQuota(): { limit?: number; remaining?: number; resetAt?: number };
  /** The second key (`--api-key-2`), when given. */
  apiKey2?: string;
  /** The model's verdict on every exchange so far: judged once per exchange, whoever asks. */
  model(): ModelVerdict;
  /** How long the run may still take before its time budget (`--max-duration`) is spent. */
  timeLeftMs(): number;
  /** A local address other than the usual one the run can send from, or undefined (see `Transport.otherLocalAddress`). */
  otherSourceAddress(): Promise<string | undefined>;
  /** Keeps a shrunk failing sequence for the reports. */
  reproduce(reproduction: Reproduction): void;
  /**
   * Sends requests on raw HTTP/1.x connections (the framing probe) and records their answers as
   * exchanges, the model's to judge. Absent when the deployment is reached without sockets
   * (in-process); undefined when nothing could be sent (the quota or the time budget is spent).
   */
  sendWire?(plan: WirePlan): Promise<{ exchanges: Exchange[]; connections: WireConnection[] } | undefined>;
}

/** What a check's judges read: the record of the run and what the run knew beside it. */
export interface JudgeInput extends RunFacts {
  /** For a check that sends: the exchanges it sent, in order; for one that does not: every exchange of the run. */
  exchanges: readonly Exchange[];
  /** The model's judgements on every exchange so far. */
  model: ModelVerdict;
  /** The raw connections the run opened (the framing probe's). */
  connections: readonly WireConnection[];
  /** Each try that got no answer, of the requests `exchanges` holds the answers to (the check's own, or the run's). */
  unanswered: readonly UnansweredRequest[];
}

/**
 * What a check's sending half may record beside what it sends: how much of a planned part ran, a
 * case it could not send, an operation it does not apply to. Never a verdict: its judges give those.
 */
export type PlanNotes = Pick<Outcomes, 'inconclusive' | 'ran' | 'skip'>;

export interface Check {
  /** Stable: the CLI flag value, the report key and the heading in docs/checks.md. */
  id: string;
  title: string;
  severity: Severity;
  /** What the check catches. */
  description: string;
  /** Operations it reports on, by operationId. */
  operations: readonly string[];
  /**
   * `passive` checks judge the exchanges the others made and send nothing themselves; they run last.
   * `probe` checks spend quota on purpose and run after everything else.
   */
  phase: 'active' | 'passive' | 'probe';
  /** A reason the check does not apply to this run, or undefined when it does. */
  guard?(ctx: CheckContext): string | undefined;
  /** Its plan (active and probe checks): sends its requests, each next one chosen by what came back; judges nothing. */
  send?(ctx: CheckContext, notes: PlanNotes): Promise<void>;
  /** Its judges: pure, from the record to the judgements of its rules. */
  judge(input: JudgeInput): readonly Judgement[];
  /**
   * The model's rules it also reports on the answers to what it sent: a rule its cases exist to
   * show (the filter, the limit, the 201 as sent) is judged once, by the model's judge on every
   * exchange of the run, and reported by its own check there; a check selected alone with
   * `--checks` still fails its own cases by it.
   */
  modelRules?: readonly RuleId[];
  /** Its rules read whole bodies: an answer whose body the run kept only in part is reported not judged. */
  readsBodies?: boolean;
  /** Why an operation none of its judgements reached is skipped (by default, "not exercised in this run"). */
  unreached?: string;
}

/** A rule of HTTP itself quotes its RFC (or the Fetch Standard), not the contract. */
const sourceOf = (rule: Rule) => (/^(RFC|Fetch)/.test(rule.quote) ? 'The standard' : 'The contract');

const ownerOf = new Map<string, string>(rules.map((r) => [r.id, r.checkId]));

/** The judgements of a check's own rules. */
export const ownJudgements = (checkId: string, judgements: readonly Judgement[]): Judgement[] => judgements.filter((j) => ownerOf.get(j.rule) === checkId);

/**
 * Records a check's judgements as its verdicts: a failure or warning each, quoting its rule, held
 * ones examining their operation, the answers that could not judge their case inconclusive, and
 * the operations a rule does not apply to skipped with why. Only the check's own rules are read.
 */
export function recordJudgements(checkId: string, judgements: readonly Judgement[], report: Outcomes, modelRules: readonly RuleId[] = []): void {
  const own = new Map<string, Rule>(rules.filter((r) => r.checkId === checkId || modelRules.includes(r.id)).map((r) => [r.id, r]));
  for (const judgement of judgements) {
    const rule = own.get(judgement.rule);
    if (!rule) continue;
    const { operationId, exchange } = judgement;
    switch (judgement.outcome) {
      case 'held':
        report.examined(operationId);
        break;
      case 'inconclusive':
        report.inconclusive(operationId, judgement.message!, exchange?.case ?? judgement.case);
        break;
      case 'skipped':
        report.skip(operationId, judgement.message!);
        break;
      default: {
        const extra = { rule: { id: rule.id, quote: rule.quote }, ...(judgement.related ? { related: judgement.related } : {}), ...(judgement.fields ? { fields: judgement.fields } : {}) };
        const message = `${judgement.message} ${sourceOf(rule)}: "${rule.quote}"`;
        const kind = judgement.each ? undefined : judgement.kind === undefined ? rule.id : `${rule.id} ${judgement.kind}`;
        if (judgement.outcome === 'failure') report.fail(operationId, message, exchange, kind, extra);
        else report.warn(operationId, message, exchange, kind, extra);
      }
    }
  }
}

/**
 * Judges a check over the record and records its verdicts on its outcomes: its judgements, the
 * answers its rules could not read whole (when they read bodies), and why an operation none of them
 * reached is skipped. Returns the judgements of its own rules, for the coverage table (the model's
 * rules it reports too are counted there under their own check).
 */
export function judgeCheck(check: Check, input: JudgeInput, report: Outcomes): Judgement[] {
  const judged = ownJudgements(check.id, check.judge(input));
  const sent = new Set(input.exchanges.map((e) => e.seq));
  const modelRules = check.modelRules ?? [];
  const borrowed = modelRules.length === 0 ? [] : input.model.judgements.filter((j) => modelRules.includes(j.rule) && j.exchange !== undefined && sent.has(j.exchange.seq));
  recordJudgements(check.id, [...judged, ...borrowed], report, modelRules);
  if (check.readsBodies) {
    for (const exchange of input.exchanges) {
      if (exchange.response.keptInPart === undefined) continue;
      const op = check.operations.includes(exchange.operationId) ? exchange.operationId : 'unlisted';
      report.inconclusive(op, `${exchange.request.method} ${exchange.path} was answered ${exchange.response.status}, but ${exchange.response.keptInPart}`, exchange.case);
    }
  }
  if (check.unreached !== undefined) for (const op of check.operations) report.skip(op, check.unreached);
  return judged;
}

export const excerptLength = 600;

export function evidenceOf(exchange: Exchange): Evidence {
  const body = exchange.response.body;
  return {
    request: exchange.request,
    response: {
      status: exchange.response.status,
      headers: exchange.response.headers,
      bodyExcerpt: body.length > excerptLength ? `${body.slice(0, excerptLength)}…` : body,
    },
    curl: curlCommand(exchange.request),
  };
}

/** Collects a check's verdicts per operation. An operation never examined is skipped, never passed. */
export class Outcomes {
  #examined = new Set<string>();
  #skipped = new Map<string, string>();
  #inconclusive = new Map<string, Inconclusive[]>();
  #findings = new Map<string, Finding[]>();

  constructor(readonly operations: readonly string[]) {}

  /** The operation was examined (and passes unless a failure is added). */
  examined(operationId: string): void {
    this.#examined.add(operationId);
  }

  /**
   * Records a failure. Findings with the same `kind` on one operation are counted on the first,
   * so a problem every answer shares is one finding, not forty.
   */
  fail(operationId: string, message: string, exchange?: Exchange, kind?: string, extra?: Pick<Finding, 'rule' | 'related' | 'fields'>): void {
    this.#add(operationId, 'failure', message, exchange, kind, true, extra);
  }

  warn(operationId: string, message: string, exchange?: Exchange, kind?: string, extra?: Pick<Finding, 'rule' | 'related' | 'fields'>): void {
    this.#add(operationId, 'warning', message, exchange, kind, false, extra);
  }

  skip(operationId: string, reason: string): void {
    if (!this.#skipped.has(operationId)) this.#skipped.set(operationId, reason);
  }

  skipAll(reason: string): void {
    for (const op of this.operations) this.skip(op, reason);
  }

  #parts: PlannedPart[] = [];

  /** Says how much of a planned part ran (7 of 12 `sequences`), and why not all of it. */
  ran(part: string, ran: number, planned: number, reason?: string): void {
    this.#parts.push({ part, ran, planned, ...(reason !== undefined ? { reason } : {}) });
  }

  parts(): PlannedPart[] {
    return this.#parts;
  }

  #sent = new Map<string, Map<string, number>>();

  /** A request of a generated case was sent (answered or not), taking `ms`: the case is one of the check's. */
  sent(operationId: string, caseName: string, ms: number): void {
    const cases = this.#sent.get(operationId) ?? new Map<string, number>();
    cases.set(caseName, (cases.get(caseName) ?? 0) + ms);
    this.#sent.set(operationId, cases);
  }

  /** A case that could not be judged: it neither passes nor fails the operation. */
  inconclusive(operationId: string, reason: string, caseName?: string): void {
    const list = this.#inconclusive.get(operationId) ?? [];
    if (!list.some((i) => i.case === caseName && i.reason === reason)) list.push({ ...(caseName !== undefined ? { case: caseName } : {}), reason });
    this.#inconclusive.set(operationId, list);
  }

  /**
   * Checks a condition on the answer to a case: examined either way, a failure when it does not
   * hold. An answer that cannot judge the case (see `unjudgeable`) makes it inconclusive instead.
   * Returns whether the condition held on a judgeable answer.
   */
  expect(condition: boolean, exchange: Exchange, message: string, kind?: string): boolean {
    const why = unjudgeable(exchange);
    if (why) {
      this.inconclusive(exchange.operationId, why, exchange.case);
      return false;
    }
    return this.expectOfAnswer(condition, exchange, message, kind);
  }

  /** For rules every answer must keep, whatever it is (passive checks): never inconclusive. */
  expectOfAnswer(condition: boolean, exchange: Exchange, message: string, kind?: string): boolean {
    this.examined(exchange.operationId);
    if (!condition) this.fail(exchange.operationId, message, exchange, kind);
    return condition;
  }

  results(): OperationResult[] {
    const operations = [...new Set([...this.operations, ...this.#findings.keys(), ...this.#sent.keys()])];
    return operations.map((operationId): OperationResult => {
      const findings = this.#findings.get(operationId) ?? [];
      const inconclusive = this.#inconclusive.get(operationId);
      const extra = inconclusive ? { inconclusive } : {};
      const verdict = ((): Pick<OperationResult, 'status' | 'reason'> => {
        if (findings.some((f) => f.level === 'failure')) return { status: 'failed' };
        if (this.#examined.has(operationId)) return { status: 'passed' };
        return { status: 'skipped', reason: this.#skipped.get(operationId) ?? (inconclusive ? `could not judge: ${inconclusiveLine(inconclusive[0]!)}${inconclusive.length > 1 ? ` (and ${inconclusive.length - 1} more)` : ''}` : 'not exercised in this run') };
      })();
      const cases = this.#casesOf(operationId, verdict, findings, inconclusive ?? []);
      return { operationId, ...verdict, findings, ...extra, ...(cases.length > 0 ? { cases } : {}) };
    });
  }

  /**
   * Each case the check sent on the operation (and each it could not send), its verdict decided
   * here, where its findings are: failed by a failure naming it, skipped when its answer could not
   * judge it or the operation was skipped, passed otherwise.
   */
  #casesOf(operationId: string, op: Pick<OperationResult, 'status' | 'reason'>, findings: readonly Finding[], inconclusive: readonly Inconclusive[]): CaseResult[] {
    const own = new Map(this.#sent.get(operationId) ?? []);
    for (const i of inconclusive) if (i.case !== undefined && !own.has(i.case)) own.set(i.case, 0);
    return [...own].map(([name, ms]): CaseResult => {
      const unjudged = inconclusive.filter((i) => i.case === name);
      const status = findings.some((f) => f.case === name && f.level === 'failure') ? 'failed' : unjudged.length > 0 || op.status === 'skipped' ? 'skipped' : 'passed';
      const reason = unjudged.length > 0 ? `could not judge: ${unjudged.map((i) => i.reason).join('; ')}` : op.reason ?? 'not exercised in this run';
      return { case: name, status, ...(status === 'skipped' ? { reason } : {}), durationMs: ms };
    });
  }

  #kinds = new Map<string, Finding>();

  #add(operationId: string, level: Finding['level'], message: string, exchange: Exchange | undefined, kind: string | undefined, examines = true, extra: Pick<Finding, 'rule' | 'related' | 'fields'> = {}): void {
    // A warning alone examines nothing: it cannot fail the operation, so it cannot pass it either.
    if (examines) this.#examined.add(operationId);
    const seen = kind === undefined ? undefined : this.#kinds.get(`${operationId}\0${kind}`);
    if (seen) {
      seen.occurrences++;
      // Counted on the first, the finding is about every field its occurrences are about; one about the whole answer makes it so.
      if (seen.fields && extra.fields) seen.fields = [...new Set([...seen.fields, ...extra.fields])];
      else delete seen.fields;
      return;
    }
    const finding: Finding = {
      level,
      message,
      ...(exchange?.case !== undefined ? { case: exchange.case } : {}),
      ...(exchange ? { evidence: evidenceOf(exchange) } : {}),
      occurrences: 1,
      ...extra,
    };
    if (kind !== undefined) this.#kinds.set(`${operationId}\0${kind}`, finding);
    const list = this.#findings.get(operationId) ?? [];
    list.push(finding);
    this.#findings.set(operationId, list);
  }
}
