// A credential's requests dropped while the deployment answers others: lost on every try (their
// connections closed, or nothing came), with answers to another credential's requests on both sides
// of the later one. An outage silences every request; this is the deployment's failure to answer
// that kind: a request without a valid key is owed a 401, one over the limit a 429 (RFC 9110, 15:
// a server answers each request it reads with a status code).
import type { Bucket, Exchange, UnansweredRequest } from '../http/exchange.ts';
import type { Judgement } from './judgement.ts';
import { silentExchange } from './judgeSilence.ts';
import { droppedCases } from '../http/confirmDropped.ts';

type Lost = Pick<UnansweredRequest, 'operationId' | 'sentAt' | 'durationMs' | 'request' | 'error' | 'checkId' | 'afterSeq'> & Partial<UnansweredRequest>;

const credential: Record<Bucket, string> = { key: 'with the key', key2: 'with the second key', anonymous: 'without a key' };
const owed: Record<Bucket, string> = {
  anonymous: 'A request without a valid key is owed a 401 with an Error body ("When the key is missing or invalid, the response is 401 with an Error body").',
  key: 'A request with the key is owed an answer: its operation\'s, or a 429 once over the limit ("Requests over the limit receive 429 Too Many Requests").',
  key2: 'A request with the key is owed an answer: its operation\'s, or a 429 once over the limit ("Requests over the limit receive 429 Too Many Requests").',
};

/**
 * For each credential: two of its requests given up on every try (`givenUp`), the later the plain
 * list sent to tell (`droppedCases.plain`), no answer to that credential between them, an answer to
 * another credential both between them and after the later one, and no request of another
 * credential given up in the whole run: a failure of `wire.answered` on the later one's operation. Places come from `afterSeq`
 * (how many answers had come when a request left) against the answers' seq.
 */
export function judgeDropped(unanswered: readonly Lost[], exchanges: readonly Exchange[]): Judgement[] {
  const out: Judgement[] = [];
  for (const bucket of ['anonymous', 'key', 'key2'] as const) {
    const lost = unanswered.filter((u) => u.bucket === bucket && u.givenUp === true && u.wire !== true);
    // Another credential's requests lost too, anywhere in the run: a deployment or a network that
    // fails as it likes, which the run's count of lost requests judges, not a drop.
    if (unanswered.some((u) => u.bucket !== bucket && u.givenUp === true && u.wire !== true)) continue;
    for (let i = 1; i < lost.length; i++) {
      const [earlier, later] = [lost[i - 1]!, lost[i]!];
      // The later one the plainest request with that credential: a malformed one may be closed on.
      if (later.case !== droppedCases.plain) continue;
      const within = (e: Exchange) => e.seq > earlier.afterSeq && e.seq <= later.afterSeq;
      if (exchanges.some((e) => e.bucket === bucket && within(e))) continue;
      // A key refused with 429 before may be banned, and the contract shows no form of a ban.
      if (bucket !== 'anonymous' && exchanges.some((e) => e.bucket === bucket && e.response.status === 429 && e.seq <= earlier.afterSeq)) continue;
      const between = exchanges.find((e) => e.bucket !== bucket && within(e));
      const after = exchanges.find((e) => e.bucket !== bucket && e.seq > later.afterSeq);
      if (!between || !after) continue;
      out.push({
        rule: 'wire.answered',
        operationId: later.operationId,
        exchange: silentExchange(later),
        outcome: 'failure',
        kind: `dropped ${bucket}`,
        message: `Requests ${credential[bucket]} got no answer at all, on every try: ${earlier.error}, then a plain list: ${later.error}; #${between.seq} ${between.request.method} ${between.path} (${between.response.status}) between them and #${after.seq} ${after.request.method} ${after.path} (${after.response.status}) after, with another credential, were answered. The deployment is up and drops these requests. ${owed[bucket]}`,
      });
      break;
    }
  }
  return out;
}
