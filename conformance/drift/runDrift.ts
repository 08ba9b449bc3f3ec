// A drift run: the same probes sent to two deployments, each side's exchanges judged by the
// suite's model (the proxy's judge, which judges any stream of exchanges), and every difference in
// what they showed classified (classifyDrift.ts).
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { SpecValidators } from '../specValidators.ts';
import { judgeProxyTraffic } from '../proxy/judgeProxyTraffic.ts';
import { classifyDrift, type DriftResult, type JudgedSide } from './classifyDrift.ts';
import { DriftSide, type DriftTarget } from './driftSide.ts';
import { observeSide, observeSpentQuota } from './probes.ts';
import { sendGeneratedTraffic, type GeneratedSideRecord } from './generatedDrift.ts';

export interface DriftOptions {
  /** The deployment described (A): its choices are the ones a written profile holds. */
  base: DriftTarget;
  /** The deployment compared with it (B, or the mock). */
  against: DriftTarget;
  /** The `against` side is the project's mock: its report names the choices it cannot make. */
  againstIsMock?: boolean;
  spec: LoadedSpec;
  /** Spend the keyless quota of this address on each side to see a 429 (its Retry-After). Default false. */
  probeRateLimit?: boolean;
  probeMaxRequests?: number;
  /** Get each side's key banned, to see its ban rule (it stays banned for the ban's length). Default false. */
  probeBan?: boolean;
  /** The most requests the ban probe sends to each side. Default 2,000. */
  probeBanMaxRequests?: number;
  /** The largest body the body-limit probe sends, in bytes; 0: none. Default 2 MiB. */
  probeMaxBody?: number;
  /** Per answer, in ms. Default 10,000. */
  timeoutMs?: number;
  /** Any open-choice difference fails the run. */
  failOnDrift?: boolean;
  /** The seed of the generated traffic, as the suite's `--seed` (default 1). */
  seed?: number;
  /** The most generated requests sent to each side (default 200; 0 sends none). */
  generatedRequests?: number;
}

/** The suite's default seed, and the generated requests a drift run sends each side by default. */
export const defaultDriftSeed = 1;
export const defaultGeneratedRequests = 200;

async function judge(side: DriftSide, spec: LoadedSpec, validators: SpecValidators): Promise<JudgedSide> {
  const failedSeqs = new Set<number>();
  const verdict = await judgeProxyTraffic(side.records, { spec, validators, target: side.target.baseUrl, sharedKey: false, startedAt: side.startedAt, now: side.target.now(), onFailure: (seq) => failedSeqs.add(seq) });
  return { target: side.target, side, failures: verdict.findings.filter((f) => f.level === 'failure'), warnings: verdict.findings.filter((f) => f.level === 'warning'), failedSeqs };
}

export async function runDrift(options: DriftOptions): Promise<DriftResult> {
  const probeOptions = { probeRateLimit: options.probeRateLimit ?? false, probeMaxRequests: options.probeMaxRequests ?? 200, probeBan: options.probeBan, probeBanMaxRequests: options.probeBanMaxRequests, probeMaxBody: options.probeMaxBody };
  const timeout = options.timeoutMs ?? 10_000;
  const base = new DriftSide(options.base, timeout);
  const against = new DriftSide(options.against, timeout);
  const [seenBase, seenAgainst] = await Promise.all([observeSide(base, probeOptions), observeSide(against, probeOptions)]);
  // The generated traffic, after the probes (whose list-order reads must find their own pets near the front), before the probes that spend a quota (the keyless one, then the key's to a ban).
  const seed = options.seed ?? defaultDriftSeed;
  const max = options.generatedRequests ?? defaultGeneratedRequests;
  const judgeable = !seenBase.cannotJudge && !seenAgainst.cannotJudge;
  const generated: { base: GeneratedSideRecord; against: GeneratedSideRecord } | undefined = judgeable && max > 0 ? await sendGeneratedTraffic(base, against, { seed, maxRequests: max }) : undefined;
  await Promise.all([observeSpentQuota(base, seenBase, probeOptions), observeSpentQuota(against, seenAgainst, probeOptions)]);
  // One set of validators for both sides: compiling them is most of a judge's start.
  const validators = new SpecValidators(options.spec);
  const [judgedBase, judgedAgainst] = await Promise.all([judge(base, options.spec, validators), judge(against, options.spec, validators)]);
  return classifyDrift({ base: { ...judgedBase, seen: seenBase }, against: { ...judgedAgainst, seen: seenAgainst }, againstIsMock: options.againstIsMock ?? false, failOnDrift: options.failOnDrift ?? false, ...(generated ? { generated: { seed, maxRequests: max, ...generated } } : {}) });
}

