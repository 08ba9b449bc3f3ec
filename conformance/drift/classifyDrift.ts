// Every difference two sides showed, classified: a contract break (on which side, with the judges'
// evidence), an open choice made differently (named, with its docs/contract-choices.md row and both
// sides' behaviour), or a difference the contract makes meaningless (ids, which pets, messages).
// A choice whose probe broke the contract on a side is that side's break, never drift.
import { isDeepStrictEqual } from 'node:util';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import type { ProxyFinding } from '../proxy/judgeProxyTraffic.ts';
import { driftField, driftFields } from './driftFields.ts';
import { pinnedStatus, situationNames, type SituationName } from '../../mock/profile/situations.ts';
import type { DriftSide, DriftTarget } from './driftSide.ts';
import type { Observation, SideObservations } from './probes.ts';
import { profileOf, type CannotMake } from './profileOf.ts';
import { comparePairs, generatedChoiceOf, pairAnswers, type GeneratedDifference } from './comparePairs.ts';
import type { GeneratedSideRecord } from './generatedDrift.ts';
import { madeByProfileField } from './situationOf.ts';

export interface SideSummary {
  label: string;
  baseUrl: string;
  requests: number;
  /** The judges' warnings on its exchanges: not breaks (the contract does not pin what they are about). */
  warnings: number;
  cannotJudge?: string;
}

export interface ContractBreak {
  side: string;
  check: string;
  rule: string;
  /** The contract's sentence or the RFC rule the judges rest on. */
  quote: string;
  message: string;
  occurrences: number;
  exchange?: { method: string; path: string; status: number };
  /** The open choice whose probe showed it, when one did. */
  field?: string;
}

export interface ChoiceDifference {
  field: string;
  title: string;
  /** The Question of docs/contract-choices.md. */
  row: string;
  base: { value: unknown; shown: string };
  against: { value: unknown; shown: string };
  /** Set when `against` is the mock and the mock cannot make the base side's choice. */
  mockCannotMake?: string;
  /** Shown by the generated traffic: how many of its requests, and the first (`GET /pets?limit=0`). */
  requests?: number;
  example?: string;
  /** No known choice names it: an open-choice difference the report cannot file under a row. */
  unnamed?: boolean;
}

export interface MeaninglessDifference {
  what: string;
  base: string;
  against: string;
}

export type DriftVerdict = 'kept' | 'broken' | 'cannot-judge';

export interface DriftResult {
  verdict: DriftVerdict;
  exitCode: 0 | 1 | 2;
  /** Why the run could not judge, when it could not. */
  reason?: string;
  failOnDrift: boolean;
  base: SideSummary;
  against: SideSummary;
  againstIsMock: boolean;
  breaks: ContractBreak[];
  choices: ChoiceDifference[];
  /** Choices both sides made alike. */
  same: { field: string; row: string; shown: string }[];
  /** Choices one side or both did not show in this run (the probe got no telling answer). */
  unobserved: { field: string; row: string; on: string[] }[];
  meaningless: MeaninglessDifference[];
  /** The base side's choices as a profile (`--write-profile`). */
  profile: DeploymentProfile;
  /** The base side's choices the mock cannot make, whatever the other side is. */
  cannotMake: CannotMake[];
  /** The generated traffic both sides were sent, when it was. */
  generated?: GeneratedSummary;
}

export interface GeneratedSummary {
  seed: number;
  maxRequests: number;
  /** Requests sent to each side, and the pairs of answers compared. */
  requests: { base: number; against: number };
  pairs: number;
  /** Pairs by what their difference was: none, a break, an open choice (named or not), meaningless. */
  outcome: { same: number; break: number; choice: number; unnamed: number; meaningless: number };
  stopped?: string;
}

/** One side's exchanges as the judges found them. */
export interface JudgedSide {
  target: DriftTarget;
  side: DriftSide;
  failures: ProxyFinding[];
  warnings: ProxyFinding[];
  /** The seqs of the exchanges a judge failed. */
  failedSeqs: ReadonlySet<number>;
}

type Seen = JudgedSide & { seen: SideObservations };

const summary = (s: Seen): SideSummary => ({ label: s.target.label, baseUrl: redactedUrl(s.target), requests: s.side.exchanges.length, warnings: s.warnings.length, ...(s.seen.cannotJudge ? { cannotJudge: s.seen.cannotJudge } : {}) });

const pathOf = (path: string) => path.split('?')[0]!;

/** Whether a failure's evidence is one of the probe's exchanges on that side. */
function shownBy(finding: ProxyFinding, side: Seen, observation: Observation | undefined): boolean {
  if (!observation || !finding.exchange) return false;
  const { method, path, status } = finding.exchange;
  return side.side.exchanges.some((x) => x.probe === observation.probe && x.request.method === method && x.response?.status === status && pathOf(new URL(`${side.target.baseUrl}${x.request.path}`).pathname) === pathOf(path));
}

/** Extra field sets are one choice by their names: their values are examples. */
const comparable = (field: string, value: unknown): unknown => (field === 'extraPetFields' || field === 'extraErrorFields') && value !== null && typeof value === 'object' ? Object.keys(value).sort() : value;

const breaksOf = (side: Seen): ContractBreak[] =>
  side.failures.map((f) => ({ side: side.target.label, check: f.check, rule: f.rule, quote: f.quote, message: f.message, occurrences: f.occurrences, ...(f.exchange ? { exchange: f.exchange } : {}) }));

export interface GeneratedRun {
  seed: number;
  maxRequests: number;
  base: GeneratedSideRecord;
  against: GeneratedSideRecord;
}

const pinnedOf = (field: string): number | undefined => (field.startsWith('errors.') && situationNames.includes(field.slice(7) as SituationName) ? pinnedStatus(field.slice(7) as SituationName) : undefined);

/** The sides whose probe answer to a situation breaks what the contract pins: its status, or an Error's code. */
function pinnedBreakSides(field: string, a: Observation, b: Observation): ['base' | 'against', Observation][] {
  if (!field.startsWith('errors.')) return [];
  const pinned = pinnedOf(field);
  const broken = (o: Observation) => {
    const value = o.value as { status?: number; code?: unknown };
    return (pinned !== undefined && value.status !== pinned) || typeof value.code !== 'string';
  };
  return [...(broken(a) ? [['base', a] as ['base', Observation]] : []), ...(broken(b) ? [['against', b] as ['against', Observation]] : [])];
}

export function classifyDrift({ base, against, againstIsMock, failOnDrift, generated }: { base: Seen; against: Seen; againstIsMock: boolean; failOnDrift: boolean; generated?: GeneratedRun }): DriftResult {
  const breaks = [...breaksOf(base), ...breaksOf(against)];
  const { profile, cannotMake } = profileOf(base.seen.choices, `observed on ${redactedUrl(base.target)} by pets-conformance drift`);
  const choices: ChoiceDifference[] = [];
  const same: DriftResult['same'] = [];
  const unobserved: DriftResult['unobserved'] = [];
  for (const { field, title, row } of driftFields) {
    const [a, b] = [base.seen.choices.get(field), against.seen.choices.get(field)];
    if (!a || !b) {
      unobserved.push({ field, row, on: [...(!a ? [base.target.label] : []), ...(!b ? [against.target.label] : [])] });
      continue;
    }
    if (isDeepStrictEqual(comparable(field, a.value), comparable(field, b.value))) {
      same.push({ field, row, shown: a.shown });
      continue;
    }
    // A difference whose probe broke the contract on a side is that side's break, not a choice.
    const shown = [...base.failures.filter((f) => shownBy(f, base, a)).map((f) => ({ f, side: base.target.label })), ...against.failures.filter((f) => shownBy(f, against, b)).map((f) => ({ f, side: against.target.label }))];
    if (shown.length > 0) {
      for (const { f, side } of shown) {
        const brk = breaks.find((x) => x.side === side && x.check === f.check && x.rule === f.rule && x.message === f.message);
        if (brk) brk.field ??= field;
      }
      continue;
    }
    // A status the contract pins for the situation, or an Error without its fields, is a break of the side that gave it, never a choice.
    const pinnedSides = pinnedBreakSides(field, a, b);
    if (pinnedSides.length > 0) {
      for (const [side, seen] of pinnedSides.map(([which, o]) => [which === 'base' ? base : against, o] as const)) breaks.push({ side: side.target.label, check: 'drift', rule: 'drift.pinned-status', quote: 'Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code. / the Errors table\'s status for the situation', message: `${title}: ${side.target.label} ${seen.shown}, where the contract pins ${pinnedOf(field) ?? 'an Error with a code'}. No judge failed the probe's exchange; the pair shows it.`, occurrences: 1, field });
      continue;
    }
    const cannot = againstIsMock ? cannotMake.find((c) => c.field === field) : undefined;
    choices.push({ field, title, row, base: { value: a.value, shown: a.shown }, against: { value: b.value, shown: b.shown }, ...(cannot ? { mockCannotMake: cannot.reason } : {}) });
  }
  const meaningless: MeaninglessDifference[] = [];
  for (const [what, value] of base.seen.incidental) {
    const other = against.seen.incidental.get(what);
    if (other !== undefined && other !== value) meaningless.push({ what, base: value, against: other });
  }
  const summaryOfGenerated = generated ? foldGenerated(generated, { base, against, againstIsMock, breaks, choices, same, meaningless, cannotMake, profile }) : undefined;
  const cannotJudge = base.seen.cannotJudge ?? against.seen.cannotJudge;
  const verdict: DriftVerdict = cannotJudge ? 'cannot-judge' : breaks.length > 0 ? 'broken' : 'kept';
  const exitCode = verdict === 'cannot-judge' ? 2 : verdict === 'broken' || (failOnDrift && choices.length > 0) ? 1 : 0;
  return {
    verdict,
    exitCode,
    ...(cannotJudge ? { reason: cannotJudge } : {}),
    failOnDrift,
    base: summary(base),
    against: summary(against),
    againstIsMock,
    breaks,
    choices,
    same,
    unobserved,
    meaningless,
    profile,
    cannotMake,
    ...(summaryOfGenerated ? { generated: summaryOfGenerated } : {}),
  };
}

/** The contract's words for a status a pinned break names. */
const pinnedQuote: Record<string, string> = {
  '401': 'When the key is missing or invalid, the response is 401 with an Error body.',
  '400': '400 | Error. The body is missing required fields or has invalid values.',
  '200': '200 | Pets (array of Pet). / 200 | Pet.',
};
const quoteOf = (pinned: string) => pinnedQuote[pinned] ?? (pinned.startsWith('201') ? '201 | Pet (the created animal including its assigned `id`). / 400 | Error. The body is missing required fields or has invalid values.' : `createPet: ${pinned}`);

interface Fold {
  base: Seen;
  against: Seen;
  againstIsMock: boolean;
  breaks: ContractBreak[];
  choices: ChoiceDifference[];
  same: DriftResult['same'];
  meaningless: MeaninglessDifference[];
  cannotMake: CannotMake[];
  /** The base side's profile: why it refused a create body (comparePairs). */
  profile: DeploymentProfile;
}

/**
 * The generated traffic's pairs compared (comparePairs.ts) and folded into the result: a status
 * the contract pins that one side did not give is that side's break; an open choice joins the
 * probes' (a side that answers one situation in more than one way is a choice the mock cannot
 * make); a difference no choice names is listed as such; the meaningless ones are counted.
 */
function foldGenerated(generated: GeneratedRun, fold: Fold): GeneratedSummary {
  const { base, against, againstIsMock } = fold;
  const label = { base: base.target.label, against: against.target.label };
  const pairs = pairAnswers(generated.base.answers, generated.against.answers);
  const differences = comparePairs(pairs, (side, seq) => (side === 'base' ? base : against).failedSeqs.has(seq), fold.profile);
  const outcome = { same: 0, break: 0, choice: 0, unnamed: 0, meaningless: 0 };
  const byPair = new Map<string, GeneratedDifference[]>();
  for (const d of differences) byPair.set(d.key, [...(byPair.get(d.key) ?? []), d]);
  for (const pair of pairs) {
    const found = byPair.get(pair.key) ?? [];
    const kinds = new Set(found.map((d) => d.kind));
    outcome[kinds.has('break') ? 'break' : kinds.has('choice') ? 'choice' : kinds.has('unnamed') ? 'unnamed' : kinds.has('meaningless') ? 'meaningless' : 'same']++;
  }
  const groups = new Map<string, { d: GeneratedDifference; n: number }>();
  for (const d of differences) {
    if (d.kind === 'break' && d.how === 'judged') continue;
    const id = [d.kind, d.field ?? d.situation, d.kind === 'meaningless' ? '' : d.base, d.kind === 'meaningless' ? '' : d.against, d.sides?.join() ?? ''].join('\u0000');
    const had = groups.get(id);
    if (had) had.n++;
    else groups.set(id, { d, n: 1 });
  }
  const profileFields = new Set(driftFields.map((f) => f.field));
  for (const { d, n } of groups.values()) {
    if (d.kind === 'break') {
      for (const side of d.sides ?? []) {
        const answered = side === 'base' ? d.base : d.against;
        const other = side === 'base' ? d.against : d.base;
        fold.breaks.push({ side: label[side], check: 'drift', rule: 'drift.pinned-status', quote: quoteOf(d.pinned ?? ''), message: `${d.situation}: ${d.request} was answered ${answered}, where the contract allows ${d.pinned} (${label[side === 'base' ? 'against' : 'base']} answered ${other}). No judge failed the exchange; the pair shows it.`, occurrences: n, exchange: { method: d.request.split(' ')[0]!, path: d.request.slice(d.request.indexOf(' ') + 1), status: Number(answered.split(' ')[0]) } });
      }
      continue;
    }
    if (d.kind === 'meaningless') {
      fold.meaningless.push({ what: `${d.field ?? d.situation} (generated traffic: ${n} request${n === 1 ? '' : 's'}, e.g. ${d.request})`, base: d.base, against: d.against });
      continue;
    }
    const field = d.field ?? 'unnamed';
    const named = d.kind === 'choice' ? (profileFields.has(field) ? driftField(field) : generatedChoiceOf(field)) : undefined;
    const evidence = { requests: n, example: d.request };
    if (!named) {
      const what = `${d.situation}${d.field ? ` (${d.field})` : ''}`;
      fold.choices.push({ field: `unnamed: ${what}`, title: `an answer no known choice names: ${what}`, row: '(none: no row of contract-choices.md names it)', base: { value: d.base, shown: d.base }, against: { value: d.against, shown: d.against }, unnamed: true, ...evidence, ...(againstIsMock ? { mockCannotMake: 'no profile field names this choice' } : {}) });
      continue;
    }
    // The base side's own probe of this choice: a generated answer unlike it means the side answers the situation in more than one way.
    const probed = base.seen.choices.get(field);
    const inconsistent = probed !== undefined && d.baseValue !== undefined && !isDeepStrictEqual(comparable(field, probed.value), comparable(field, d.baseValue));
    const existing = fold.choices.find((c) => c.field === field && c.base.shown === d.base && c.against.shown === d.against);
    if (existing && !inconsistent) {
      existing.requests = (existing.requests ?? 0) + n;
      existing.example ??= d.request;
      continue;
    }
    // A choice another profile field makes (int64Range: categoryIdRange's bounds) is as makeable as that field's probe showed.
    const madeBy = madeByProfileField[field] ?? field;
    const cannot = !againstIsMock
      ? undefined
      : !profileFields.has(madeBy)
        ? 'the profile format has no field for this choice: the mock makes its own'
        : inconsistent
          ? `${label.base} answers this situation in more than one way (its probe: ${probed!.shown}; ${d.request}: ${d.base}); a profile holds one answer per situation, and per reason it refuses a create body`
          : // The base side's probe showed a value the mock cannot make (profileOf): the generated answers show the same choice.
            fold.cannotMake.find((c) => c.field === madeBy)?.reason;
    const same = fold.same.findIndex((x) => x.field === field);
    if (same >= 0) fold.same.splice(same, 1);
    fold.choices.push({ field, title: named.title, row: named.row, base: { value: d.baseValue ?? d.base, shown: d.base }, against: { value: d.against, shown: d.against }, ...evidence, ...(cannot ? { mockCannotMake: cannot } : {}) });
    if (cannot && !fold.cannotMake.some((c) => c.field === field)) fold.cannotMake.push({ field, reason: cannot });
  }
  return {
    seed: generated.seed,
    maxRequests: generated.maxRequests,
    requests: { base: generated.base.answers.length, against: generated.against.answers.length },
    pairs: pairs.length,
    outcome,
    ...(generated.base.stopped ? { stopped: generated.base.stopped } : {}),
  };
}

/** A base URL with any user information taken out: a report names where, never with what credentials. */
export function redactedUrl(target: Pick<DriftTarget, 'baseUrl'>): string {
  try {
    const url = new URL(target.baseUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return target.baseUrl;
  }
}

export { driftField };
