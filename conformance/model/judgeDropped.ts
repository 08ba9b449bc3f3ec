// Requests without a key dropped while the deployment serves requests with one: their connections
// closed on every try, with requests with the key served on both sides of the later one. An outage
// silences every request, and the key's requests reach the service behind any gateway; this is the
// deployment's failure to answer that kind: a request without a valid key is owed a 401 (RFC 9110,
// 15: a server answers each request it reads with a status code).
import type { Exchange, UnansweredRequest } from '../http/exchange.ts';
import type { Judgement } from './judgement.ts';
import { silentExchange } from './judgeSilence.ts';
import { droppedCases } from '../http/confirmDropped.ts';

type Lost = Pick<UnansweredRequest, 'operationId' | 'sentAt' | 'durationMs' | 'request' | 'error' | 'checkId' | 'afterSeq'> & Partial<UnansweredRequest>;

/**
 * Two requests without a key given up with their connections closed (`givenUp`, not timed out),
 * the later the plain list sent to tell (`droppedCases.plain`), no answer without a key between
 * them, a request with the key served (2xx) both between them and after the later one, and no
 * request with a key given up in the whole run: a failure of `wire.answered` on the later one's
 * operation. Places come from `afterSeq` (how many answers had come when a request left) against
 * the answers' seq.
 */
export function judgeDropped(unanswered: readonly Lost[], exchanges: readonly Exchange[]): Judgement[] {
  const keyless = (u: Lost) => u.bucket === 'anonymous';
  // A request with a key lost too, anywhere in the run: a deployment or a network that fails as it
  // likes, which the run's count of lost requests judges, not a drop.
  if (unanswered.some((u) => !keyless(u) && u.givenUp === true && u.wire !== true)) return [];
  const lost = unanswered.filter((u) => keyless(u) && u.givenUp === true && u.wire !== true && u.timedOut !== true);
  for (let i = 1; i < lost.length; i++) {
    const [earlier, later] = [lost[i - 1]!, lost[i]!];
    // The later one the plainest request without a key: a malformed one may be closed on.
    if (later.case !== droppedCases.plain) continue;
    const within = (e: Exchange) => e.seq > earlier.afterSeq && e.seq <= later.afterSeq;
    if (exchanges.some((e) => e.bucket === 'anonymous' && within(e))) continue;
    // Served with a key (2xx): the service behind any gateway is up.
    const served = (e: Exchange) => e.bucket !== 'anonymous' && e.response.status >= 200 && e.response.status < 300;
    const between = exchanges.find((e) => served(e) && within(e));
    const after = exchanges.find((e) => served(e) && e.seq > later.afterSeq);
    if (!between || !after) continue;
    return [
      {
        rule: 'wire.answered',
        operationId: later.operationId,
        exchange: silentExchange(later),
        outcome: 'failure',
        kind: 'dropped without a key',
        message: `Requests without a key got their connections closed, on every try, with no answer: ${earlier.error}, then a plain list: ${later.error}; #${between.seq} ${between.request.method} ${between.path} (${between.response.status}) between them and #${after.seq} ${after.request.method} ${after.path} (${after.response.status}) after, with the key, were served. The deployment is up and drops these requests. A request without a valid key is owed a 401 with an Error body ("When the key is missing or invalid, the response is 401 with an Error body").`,
      },
    ];
  }
  return [];
}
