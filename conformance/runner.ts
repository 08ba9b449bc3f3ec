import type { LoadedSpec } from '../spec/loadSpec.ts';
import { judgeCheck, Outcomes, type Check, type CheckContext, type KnownPet, type Reproduction, type RunOptions } from './check.ts';
import type { Judgement } from './model/judgement.ts';
import { ModelRun } from './model/runModel.ts';
import type { KeyPlans } from './model/contractPlans.ts';
import { coverageOf } from './model/coverage.ts';
import { bucketOf, type ApiRequest } from './http/exchange.ts';
import { confirmDropped } from './http/confirmDropped.ts';
import type { WirePlan } from './http/wireExchanges.ts';
import { isUnavailable, PacedClient, QuotaExhaustedError, type ClientEvent } from './http/pacedClient.ts';
import { TransportError, type Transport } from './http/transport.ts';
import { preflight } from './preflight.ts';
import { assembleRunReport, checkStatus, summarizeExchanges, summarizeUnanswered, type CheckReport, type RunReport, type Verdict } from './runReport.ts';
import { SpecValidators } from './specValidators.ts';
import { seededRandom } from '../common/seededRandom.ts';
import { uncheckedOf, uncheckedReason } from './unchecked.ts';
import { toolName, toolVersion } from './version.ts';

export interface RunConfig extends RunOptions {
  baseUrl: string;
  apiKey: string;
  /** A second key (`--api-key-2`): every operation is also sent with it, for isolation between keys. */
  apiKey2?: string;
  /** The plans the run was told its keys are of (`--api-key-plan`, `--api-key-2-plan`), by key. */
  plans?: KeyPlans;
  timeoutMs: number;
  /** The run's time budget (`--max-duration`): no wait ends past it, and checks not started by then are skipped. */
  maxDurationMs?: number;
  spec: LoadedSpec;
  /** The checks whose verdicts the run reports. */
  checks: readonly Check[];
  /** Every check there is: the traffic passive checks judge is the same whichever are selected. */
  allChecks: readonly Check[];
  transport: Transport;
  onProgress?: (event: ProgressEvent) => void;
  /** The longest wait for a quota window or a Retry-After. */
  maxWaitMs?: number;
  /** Extra headers for every request (`--header`); see `config/extraHeaders.ts`. */
  headers?: Record<string, string>;
  /** Values to keep out of the reports, with what to show instead (`$WAF_TOKEN`). */
  secrets?: Record<string, string>;
  /** A run that leaves checks unchecked (the time budget, a quota window) may still pass (`--allow-partial`). */
  allowPartial?: boolean;
  /** How the client waits and reads the time: tests drive both through a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export type ProgressEvent =
  | { kind: 'check-start'; check: Check }
  | { kind: 'check-end'; check: Check; report: CheckReport }
  | { kind: 'note'; message: string };

const phases: Check['phase'][] = ['active', 'probe', 'passive'];

/** Requests in a row without an answer after which the run stops sending: the deployment is gone. */
const stopAfterFailures = 3;

/**
 * Which checks run: every check that sends traffic, whichever are selected, and the selected
 * passive ones. A check judges what the whole run's traffic shows (an id collision needs the
 * other checks' creates), so selecting checks changes what is reported, never what is sent: a
 * check's verdict alone is the one it gives in a full run.
 */
export function plannedChecks(selected: readonly Check[], all: readonly Check[]): Check[] {
  return all.filter((c) => selected.includes(c) || c.phase !== 'passive');
}

/**
 * Runs the checks against one deployment: a preflight that proves the base URL answers like this
 * API and accepts the key, then the active checks, the rate-limit probe, and the passive checks,
 * which judge every exchange the others made. Never throws for what the deployment does: a run
 * that cannot be judged comes back with verdict `cannot-run` and its reason.
 */
export async function runChecks(config: RunConfig): Promise<RunReport> {
  const now = config.now ?? (() => Date.now());
  const started = now();
  const notes: string[] = [];
  const note = (message: string) => {
    notes.push(message);
    config.onProgress?.({ kind: 'note', message });
  };
  const maxDurationMs = config.maxDurationMs ?? 300_000;
  const deadline = started + maxDurationMs;
  const client = new PacedClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    ...(config.apiKey2 ? { apiKey2: config.apiKey2 } : {}),
    sharedKey: config.sharedKey ?? false,
    deadline,
    transport: config.transport,
    timeoutMs: config.timeoutMs,
    userAgent: `${toolName}/${toolVersion}`,
    now,
    ...(config.sleep ? { sleep: config.sleep } : {}),
    ...(config.maxWaitMs !== undefined ? { maxWaitMs: config.maxWaitMs } : {}),
    ...(config.headers ? { headers: config.headers } : {}),
    ...(config.secrets ? { secrets: config.secrets } : {}),
    onEvent: (event: ClientEvent) => note(describeEvent(event)),
  });
  const validators = new SpecValidators(config.spec);
  const random = seededRandom(config.seed);
  let knownPets: KnownPet[] = [];
  const plans = config.plans ?? {};
  const planKnown = Object.values(plans).some((plan) => plan !== undefined && plan !== 'enterprise');
  const model = new ModelRun({ sharedKey: config.sharedKey ?? false, validators, plans });
  // The judgements of every check that reported, its own rules each: what the coverage table counts.
  const judgements: Judgement[] = [];
  const reproductions: Reproduction[] = [];
  let current: { id: string; outcomes: Outcomes } = { id: 'preflight', outcomes: new Outcomes([]) };
  // Each check that met one of the run's own budgets (time, a quota window), with the first reason.
  const budgetMet = new Map<string, string>();
  const metBudget = (reason: string) => {
    if (!budgetMet.has(current.id)) budgetMet.set(current.id, reason);
  };

  const ctx: CheckContext = {
    spec: config.spec,
    options: config,
    validators,
    apiKey: config.apiKey,
    send: async (request: ApiRequest, options) => {
      // Past the time budget nothing more is sent, so a deployment that answers slowly (or not at
      // all) bounds the run by --max-duration and one request's timeout; nor after several
      // requests in a row got no answer: the deployment stopped answering.
      if (client.failuresInARow >= stopAfterFailures) {
        current.outcomes.inconclusive(request.operationId, `not sent: the deployment stopped answering (${client.failuresInARow} requests in a row got none)`, request.case);
        return undefined;
      }
      // A credential whose requests the deployment drops while it answers others is not used again.
      const bucket = bucketOf(request.auth);
      if (client.muted(bucket)) {
        current.outcomes.inconclusive(request.operationId, `not sent: the deployment dropped ${bucket === 'anonymous' ? 'requests without a key' : bucket === 'key' ? 'requests with the key' : 'requests with the second key'} while it answered others`, request.case);
        return undefined;
      }
      // An operation that let requests time out in a row is not asked again: the run stays bounded,
      // and the model judges the silence against the answers the other operations got.
      const silent = client.silence(request.operationId);
      if (silent !== undefined) {
        current.outcomes.inconclusive(request.operationId, silent, request.case);
        return undefined;
      }
      if (now() >= deadline) {
        const why = `the run's time budget (--max-duration ${Math.round(maxDurationMs / 1000)} s) was spent`;
        metBudget(why);
        current.outcomes.inconclusive(request.operationId, `not sent: ${why}`, request.case);
        return undefined;
      }
      const lostBefore = client.unanswered.length;
      try {
        const exchange = await client.send(current.id, request, options);
        if (request.case !== undefined) current.outcomes.sent(exchange.operationId, request.case, exchange.response.durationMs);
        return exchange;
      } catch (error) {
        if (!(error instanceof TransportError) && !(error instanceof QuotaExhaustedError)) throw error;
        if (error instanceof QuotaExhaustedError) metBudget(error.message);
        current.outcomes.inconclusive(request.operationId, error.message, request.case);
        if (error instanceof TransportError) await confirmDropped(client, current.id, request);
        return undefined;
      } finally {
        // Each try that got no answer is part of its case too (the HAR shows it with status 0).
        for (const lost of client.unanswered.slice(lostBefore)) if (lost.case !== undefined) current.outcomes.sent(lost.operationId, lost.case, lost.durationMs);
      }
    },
    get exchanges() {
      return client.exchanges;
    },
    knownPets: () => knownPets,
    petPath: (pet) => `/pets/${pet.idText}`,
    random,
    runMark: client.runId.replace(/[^a-z0-9]/gi, '').slice(0, 8).toLowerCase(),
    keyQuota: (which = 'key') => client.quota(which),
    waitFor: (ms, why) => client.waitFor(ms, why),
    anonymousQuota: () => client.quota('anonymous'),
    keylessSent: () => client.exchanges.filter((e) => e.bucket === 'anonymous').length,
    ...(config.apiKey2 ? { apiKey2: config.apiKey2 } : {}),
    model: () => model.feed(client.exchanges, client.unanswered),
    timeLeftMs: () => deadline - now(),
    otherSourceAddress: () => config.transport.otherLocalAddress?.(config.baseUrl) ?? Promise.resolve(undefined),
    reproduce: (reproduction) => reproductions.push(reproduction),
    // Raw connections only where there are sockets: the framing probe (checks/httpFraming.ts).
    ...(config.transport.openConnection ? { sendWire: (plan) => sendWire(plan) } : {}),
  };

  async function sendWire(plan: WirePlan) {
    const operationId = plan.requests[0]?.operationId ?? 'unlisted';
    if (now() >= deadline) {
      current.outcomes.inconclusive(operationId, `not sent: the run's time budget (--max-duration ${Math.round(maxDurationMs / 1000)} s) was spent`);
      return undefined;
    }
    const lostBefore = client.unanswered.length;
    try {
      const sent = await client.sendWire(current.id, plan);
      for (const e of sent.exchanges) if (e.case !== undefined) current.outcomes.sent(e.operationId, e.case, e.response.durationMs);
      for (const lost of client.unanswered.slice(lostBefore)) if (lost.case !== undefined) current.outcomes.sent(lost.operationId, lost.case, lost.durationMs);
      return sent;
    } catch (error) {
      if (!(error instanceof TransportError) && !(error instanceof QuotaExhaustedError)) throw error;
      current.outcomes.inconclusive(operationId, error.message);
      return undefined;
    }
  }

  const reports = new Map<string, CheckReport>();
  const finish = (verdict: Verdict, reason?: string): RunReport => {
    // Stopped by the preflight, no check ran: the report has no check verdicts, only the reason.
    const checks = config.checks.flatMap((c) => reports.get(c.id) ?? []);
    const unchecked = uncheckedOf(checks, budgetMet);
    return assembleRunReport({
      runId: client.runId,
      baseUrl: config.baseUrl,
      startedAt: started,
      durationMs: now() - started,
      verdict,
      ...(reason !== undefined ? { reason } : {}),
      options: { readOnly: config.readOnly, probeRateLimit: config.probeRateLimit, seed: config.seed, depth: String(config.depth), checks: config.checks.map((c) => c.id), sharedKey: config.sharedKey ?? false, secondKey: config.apiKey2 !== undefined, ...(Object.keys(plans).length > 0 ? { plans } : {}), maxDurationMs, allowPartial: config.allowPartial ?? false },
      requests: {
        total: client.exchanges.length,
        withKey: client.exchanges.filter((e) => e.bucket === 'key').length,
        withoutKey: client.exchanges.filter((e) => e.bucket === 'anonymous').length,
        retried: client.exchanges.filter((e) => e.retries > 0).length,
        failedAtTransport: client.transportFailures,
      },
      notes,
      unchecked,
      checks,
      coverage: coverageOf(judgements, checks, { probeRateLimit: config.probeRateLimit, readOnly: config.readOnly, secondKey: config.apiKey2 !== undefined, sharedKey: config.sharedKey ?? false, planKnown, otherAddress }),
      reproductions,
      exchanges: summarizeExchanges(client.exchanges),
      unanswered: client.unanswered.map(summarizeUnanswered),
    });
  };

  // Whether the run can come from another client address, for the coverage table's reasons.
  const otherAddress = (await config.transport.otherLocalAddress?.(config.baseUrl)) !== undefined;
  const before = await preflight(client, config.baseUrl);
  if ('reason' in before) return finish('cannot-run', before.reason);
  knownPets = before.pets;

  const selected = new Set(config.checks);
  // Whether any check that sends requests got an answer it could judge.
  let sendersJudged = false;
  const planned = plannedChecks(config.checks, config.allChecks);
  for (const phase of phases) {
    for (const check of planned.filter((c) => c.phase === phase)) {
      const reported = selected.has(check);
      current = { id: check.id, outcomes: new Outcomes(check.operations) };
      if (reported) config.onProgress?.({ kind: 'check-start', check });
      const checkStarted = performance.now();
      // Past the time budget nothing more is sent; passive checks still judge what was.
      // A check the options turn off (--read-only, no --probe-rate-limit) is skipped for that, whatever the time.
      const guarded = check.guard?.(ctx);
      const outOfTime = guarded === undefined && check.phase !== 'passive' && now() >= deadline ? `the run's time budget (--max-duration ${Math.round(maxDurationMs / 1000)} s) was spent before it started` : undefined;
      if (outOfTime) metBudget(outOfTime);
      const skipReason = outOfTime ?? guarded;
      if (skipReason) current.outcomes.skipAll(skipReason);
      else {
        await check.send?.(ctx, current.outcomes);
        // A check that sends judges what it sent; one that does not, every exchange of the run.
        const exchanges = check.phase === 'passive' ? client.exchanges : client.exchanges.filter((e) => e.checkId === check.id);
        const unanswered = check.phase === 'passive' ? client.unanswered : client.unanswered.filter((u) => u.checkId === check.id);
        const judged = judgeCheck(check, { validators, knownPets, probeMaxRequests: config.probeMaxRequests, sharedKey: config.sharedKey ?? false, exchanges, unanswered, model: model.feed(client.exchanges, client.unanswered), connections: client.connections }, current.outcomes);
        if (reported) judgements.push(...judged);
      }
      const operations = current.outcomes.results();
      if (check.phase !== 'passive' && operations.some((o) => o.status !== 'skipped')) sendersJudged = true;
      if (!reported) continue;
      const report: CheckReport = {
        id: check.id,
        title: check.title,
        severity: check.severity,
        description: check.description,
        status: checkStatus(operations),
        operations,
        ...(current.outcomes.parts().length > 0 ? { parts: current.outcomes.parts() } : {}),
        durationMs: Math.round(performance.now() - checkStarted),
      };
      reports.set(check.id, report);
      config.onProgress?.({ kind: 'check-end', check, report });
    }
  }

  // Most requests lost at the transport, or the deployment stopped answering: what passed or failed rests on too little to trust.
  const answered = client.exchanges.length;
  if (client.failuresInARow >= stopAfterFailures) {
    return finish('cannot-run', `the deployment stopped answering: ${client.failuresInARow} requests in a row got no answer (after retries), after ${answered} answered. Check that ${config.baseUrl} is up, then run again.`);
  }
  // A credential muted as dropped while requests of another were lost too: not a drop of one
  // credential but a deployment or a network failing as it likes, which nothing here can judge.
  const muted = (['key', 'key2', 'anonymous'] as const).filter((b) => client.muted(b));
  if (muted.length > 0 && client.unanswered.some((u) => u.givenUp === true && u.wire !== true && u.bucket !== undefined && !muted.includes(u.bucket))) {
    return finish('cannot-run', `requests of several credentials got no answer (${client.transportFailures} after retries, against ${answered} answered): the deployment or the network fails as it likes, so the run cannot judge it. Check that ${config.baseUrl} is up and reachable, then run again.`);
  }
  if (client.transportFailures > answered) {
    return finish('cannot-run', `${client.transportFailures} requests got no answer (after retries) against ${answered} answered: the deployment or the network is failing, so the run cannot judge it. Check that ${config.baseUrl} is up and reachable, then run again.`);
  }
  // Unavailable is not broken: when most answers were 502, 503 or 504, what failed may be the outage.
  const unavailable = client.exchanges.filter((e) => isUnavailable(e.response.status));
  if (unavailable.length * 2 > answered) {
    const byStatus = [...new Set(unavailable.map((e) => e.response.status))].map((s) => `${unavailable.filter((e) => e.response.status === s).length} of ${answered} answers ${s}`).join(', ');
    return finish('cannot-run', `the deployment was unavailable (${byStatus}), so the run cannot judge it. This says nothing of the contract; run again when it is up.`);
  }
  const failed = [...reports.values()].some((r) => r.status === 'failed');
  if (failed) return finish('failed');
  // Nothing judged: a pass would say the deployment keeps the contract when nothing was shown.
  const judged = [...reports.values()].filter((r) => r.status !== 'skipped');
  const sendersPlanned = planned.some((c) => c.phase !== 'passive');
  if (judged.length === 0 || (sendersPlanned && !sendersJudged)) {
    const why = [...reports.values()].flatMap((r) => r.operations).find((o) => o.reason)?.reason ?? 'no check applied';
    return finish('cannot-run', `No check could judge the deployment: ${why}. Check the options (--checks, --read-only) and the key's quota, then run again.`);
  }
  // A pass says the deployment keeps the contract as far as the run looked: not where it did not.
  const unchecked = uncheckedOf([...reports.values()], budgetMet);
  if (unchecked.length > 0 && !config.allowPartial) return finish('cannot-run', uncheckedReason(unchecked));
  return finish('passed');
}

function describeEvent(event: ClientEvent): string {
  if (event.kind === 'unavailable') return `Request #${event.seq} was answered ${event.status} (unavailable); sent again after ${(event.waitMs / 1000).toFixed(1)} s.`;
  if (event.kind === 'wait') {
    return event.declined === undefined
      ? `Waiting ${(event.ms / 1000).toFixed(1)} s, until ${new Date(event.until).toISOString().slice(11, 19)} UTC, ${event.why}.`
      : `Not waiting ${(event.ms / 1000).toFixed(1)} s (${event.declined}) ${event.why}.`;
  }
  if (event.kind === 'transport-retry') {
    return `${event.reason}; sent again after ${event.waitMs} ms (retry ${event.attempt}).`;
  }
  const quota = event.bucket === 'key' ? 'the API key\'s quota' : event.bucket === 'key2' ? 'the second API key\'s quota' : 'the keyless quota (this address\'s)';
  return event.kind === 'wait-for-window'
    // Said when the wait starts, so a person watching the log knows why nothing moves, and until when.
    ? `Waiting ${(event.ms / 1000).toFixed(1)} s for ${quota} to reset rather than spend its last request; next request at ${new Date(event.until).toISOString().slice(11, 19)} UTC.`
    : `Unexpected 429 on request #${event.seq} (${quota}); waiting ${(event.waitMs / 1000).toFixed(1)} s as Retry-After and backoff say (try ${event.attempt + 1}).`;
}
