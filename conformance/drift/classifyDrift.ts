// Every difference two sides showed, classified: a contract break (on which side, with the judges'
// evidence), an open choice made differently (named, with its docs/contract-choices.md row and both
// sides' behaviour), or a difference the contract makes meaningless (ids, which pets, messages).
// A choice whose probe broke the contract on a side is that side's break, never drift.
import { isDeepStrictEqual } from 'node:util';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import type { ProxyFinding } from '../proxy/judgeProxyTraffic.ts';
import { driftField, driftFields } from './driftFields.ts';
import type { DriftSide, DriftTarget } from './driftSide.ts';
import type { Observation, SideObservations } from './probes.ts';
import { profileOf, type CannotMake } from './profileOf.ts';

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
}

/** One side's exchanges as the judges found them. */
export interface JudgedSide {
  target: DriftTarget;
  side: DriftSide;
  failures: ProxyFinding[];
  warnings: ProxyFinding[];
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

export function classifyDrift({ base, against, againstIsMock, failOnDrift }: { base: Seen; against: Seen; againstIsMock: boolean; failOnDrift: boolean }): DriftResult {
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
    const cannot = againstIsMock ? cannotMake.find((c) => c.field === field) : undefined;
    choices.push({ field, title, row, base: { value: a.value, shown: a.shown }, against: { value: b.value, shown: b.shown }, ...(cannot ? { mockCannotMake: cannot.reason } : {}) });
  }
  const meaningless: MeaninglessDifference[] = [];
  for (const [what, value] of base.seen.incidental) {
    const other = against.seen.incidental.get(what);
    if (other !== undefined && other !== value) meaningless.push({ what, base: value, against: other });
  }
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
