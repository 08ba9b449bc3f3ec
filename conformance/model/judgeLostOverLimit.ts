// Requests over the limit that got no answer at all. "Requests over the limit receive 429 Too Many
// Requests" (Limits): a deployment that closes their connections instead (nginx's `return 444` on
// its 429s, a WAF's drop) leaves a client no Retry-After and no way to tell a limit from an outage.
// The deployment's own numbers tell the two apart: the answer before said none remain in a window
// still open, and the key is served again once that window has ended, so the service was up.
import type { Exchange, UnansweredRequest } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import type { Judgement } from './judgement.ts';
import { isSuccess } from './http/requestKey.ts';
import { answeredAt } from './judgeRate.ts';
import { silentExchange } from './judgeSilence.ts';

/** Requests over the limit lost in a row before the judge calls it the deployment's doing, not a blip. */
const lostInARow = 2;

const served = (e: Exchange) => isSuccess(e.response.status);

/**
 * Failures of `probe.429-reached`, one per key: at least two requests of the key, each with its
 * connection closed on every try (not timed out: a slow answer is no refusal), sent after an answer
 * that served the key and said X-RateLimit-Remaining 0 while its window was still open (by that
 * answer's Date and Reset, the time since it came added: the deployment's clock, not the run's),
 * with nothing of the key answered in between, and the key served after them under a later
 * X-RateLimit-Reset. Anything else (a loss with requests left, a timeout, the key not served again)
 * is the run's count of lost requests to judge.
 */
export function judgeLostOverLimit(unanswered: readonly UnansweredRequest[], exchanges: readonly Exchange[]): Judgement[] {
  const out: Judgement[] = [];
  for (const bucket of ['key', 'key2'] as const) {
    const own = exchanges.filter((e) => e.bucket === bucket);
    const lost = unanswered.filter((u) => u.bucket === bucket && u.givenUp === true && u.wire !== true);
    for (let i = 0; i + lostInARow <= lost.length; i++) {
      const row = lost.slice(i, i + lostInARow);
      if (row.some((u) => u.timedOut === true)) continue;
      const before = own.filter((e) => e.seq <= row[0]!.afterSeq).at(-1);
      const told = before && readRateHeaders(before.response.headers);
      if (!before || !told || !served(before) || told.remaining !== 0 || told.reset === undefined) continue;
      // Every lost request sent while that window was open, on the deployment's clock (its Date
      // truncates to the second: a second of slack).
      const leftAt = (u: UnansweredRequest) => answeredAt(before) + (u.sentAt - before.sentAt - before.response.durationMs);
      if (!row.every((u) => leftAt(u) < told.reset! * 1000 - 1000)) continue;
      const last = row.at(-1)!;
      if (own.some((e) => e.seq > before.seq && e.seq <= last.afterSeq)) continue;
      const after = own.find((e) => e.seq > last.afterSeq);
      const later = after && readRateHeaders(after.response.headers).reset;
      if (!after || !served(after) || later === undefined || later <= told.reset) continue;
      out.push({
        rule: 'probe.429-reached',
        operationId: last.operationId,
        exchange: silentExchange(last),
        outcome: 'failure',
        each: true,
        message: `#${before.seq} served ${before.request.method} ${before.path} with X-RateLimit-Remaining 0 until ${told.reset}; the ${row.length} requests after it, in that window, got their connections closed on every try with no answer (${row.map((u) => u.error).join("; ")}), and #${after.seq} was served once the window had ended (X-RateLimit-Reset ${later}). The deployment was up: requests over the limit must get 429 with a Retry-After ("Requests over the limit receive 429 Too Many Requests"), not a closed connection.`,
        related: [before.seq, after.seq],
      });
      break;
    }
  }
  return out;
}
