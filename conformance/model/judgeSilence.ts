// An operation the deployment leaves unanswered while it answers the others: not an outage (that
// silences everything) but that operation's failure, shown by the timings of both.
import type { Exchange, UnansweredRequest } from '../http/exchange.ts';
import { held, type Judgement } from './judgement.ts';

/** The operations the contract documents: a silence elsewhere (an unknown path) is not judged. */
const documented = ['listPets', 'createPet', 'getPet'];

/** Requests to the operation that timed out (its first tries), in a row up to the run's end, that make a silence. */
const silentRequests = 2;
/** Answers to other requests, sent after the silence began, that show the deployment was up. */
const answersMeanUp = 2;

type Unanswered = Pick<UnansweredRequest, 'operationId' | 'sentAt' | 'durationMs' | 'request' | 'error' | 'checkId'> & Partial<UnansweredRequest>;

/** A request that got no answer, shaped as an exchange for a finding's evidence: status 0, as the HAR shows it. */
export function silentExchange(u: Unanswered): Exchange {
  return {
    seq: 0,
    checkId: u.checkId,
    operationId: u.operationId,
    intent: 'valid',
    ...(u.case !== undefined ? { case: u.case } : {}),
    path: u.path ?? new URL(u.request.url, 'http://unknown').pathname,
    bucket: u.bucket ?? 'key',
    sentAt: u.sentAt,
    request: u.request,
    response: { status: 0, headers: {}, rawHeaders: [], body: '', bytes: new Uint8Array(0), incomplete: u.error, json: undefined, durationMs: u.durationMs },
    retries: 0,
  };
}

const ms = (values: number[]) => (values.length === 0 ? '' : Math.min(...values) === Math.max(...values) ? `${values[0]} ms` : `${Math.min(...values)}–${Math.max(...values)} ms`);

/**
 * For each documented operation: a failure when its last requests (at least two) got nothing at all
 * within the timeout, on every try, while at least two requests to other operations sent after the
 * first of them were answered; held on its last answer otherwise. Judged on the whole record: what
 * was answered after the silence began decides.
 */
export function judgeSilence(unanswered: readonly Unanswered[], exchanges: readonly Exchange[]): Judgement[] {
  const out: Judgement[] = [];
  for (const op of documented) {
    const answered = exchanges.filter((e) => e.operationId === op);
    const lastAnswer = answered.reduce((at, e) => Math.max(at, e.sentAt), Number.NEGATIVE_INFINITY);
    // The framing probe's raw requests are judged on their bytes, not here.
    const silent = unanswered.filter((u) => u.operationId === op && u.sentAt > lastAnswer && u.wire !== true);
    const requests = silent.filter((u) => u.attempt === 1);
    if (silent.length > 0 && silent.every((u) => u.timedOut === true) && requests.length >= silentRequests) {
      const first = silent[0]!;
      const others = exchanges.filter((e) => e.operationId !== op && e.sentAt >= first.sentAt);
      if (others.length >= answersMeanUp) {
        // Each request's tries: its first attempt and the retries that follow it.
        const tries: Unanswered[][] = [];
        for (const u of silent) if (u.attempt === 1 || tries.length === 0) tries.push([u]);
        else tries[tries.length - 1]!.push(u);
        const shown = tries.slice(0, 3).map((t) => `${t[0]!.request.method} ${t[0]!.path ?? t[0]!.request.url} (${t.length} ${t.length === 1 ? 'try' : 'tries'})`);
        const otherOps = [...new Set(others.map((e) => e.operationId))].join(', ');
        out.push({
          rule: 'wire.answered',
          operationId: op,
          exchange: silentExchange(first),
          outcome: 'failure',
          message: `${op} got no answer at all: ${requests.length} requests in a row (${shown.join(', ')}${requests.length > 3 ? ', …' : ''}) each waited ${ms(silent.map((u) => u.durationMs))} and nothing came, not even a status line, while ${others.length} requests sent after the first of them (${otherOps}) were answered in ${ms(others.map((e) => e.response.durationMs))}. The deployment is up; ${op} hangs, and a client calling it waits for ever.`,
        });
        continue;
      }
    }
    const last = answered[answered.length - 1];
    if (last) out.push(held('wire.answered', op, last));
  }
  return out;
}
