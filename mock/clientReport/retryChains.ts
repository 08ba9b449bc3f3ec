// Which requests retried which, for a client that may run several retries of one request at once
// (a page that sent the same GET three times together, each retried on its own after its 429).
import type { ClientObservation } from './clientObservation.ts';
import { sentAt, told } from './told.ts';

/** A retry comes within this long of the failure it retries; later, it is a new request. */
export const retryWindowMs = 5 * 60_000;

/** A failure a client may retry: refused for its rate (429), a server error, or no answer at all. */
export const failed = (r: ClientObservation): boolean => r.status === 429 || r.status === 0 || r.status >= 500;

/** A retry repeats the request: its method, path and query, and a POST its body. */
const sameRequest = (r: ClientObservation) => `${r.method} ${r.url} ${r.bodyDigest ?? ''}`;

/**
 * A client's requests (in sending order: inSendingOrder) as chains of retries: each chain a
 * request, then the retries of it, each sent after the failure of the one before it. A request is
 * the retry of a failure of the same request that the client had been told of (`told`) within
 * `retryWindowMs`; each failure is retried at most once, the earliest failure first, so requests
 * sent together are chains of their own however many of them there are. A request the client sent
 * without having been told of such a failure starts a chain of its own.
 */
export function retryChains(requests: readonly ClientObservation[]): ClientObservation[][] {
  const chains: ClientObservation[][] = [];
  // The chains of each request whose last try failed: the ones a retry may continue.
  const waiting = new Map<string, ClientObservation[][]>();
  for (const r of requests) {
    const id = sameRequest(r);
    const open = (waiting.get(id) ?? []).filter((chain) => sentAt(r) - chain[chain.length - 1]!.at <= retryWindowMs);
    let retried: ClientObservation[] | undefined;
    for (const chain of open) {
      const last = chain[chain.length - 1]!;
      if (told(last, r) && (!retried || last.at < retried[retried.length - 1]!.at)) retried = chain;
    }
    const chain = retried ?? [];
    if (!retried) chains.push(chain);
    chain.push(r);
    const stillOpen = open.filter((c) => c !== chain);
    if (failed(r)) stillOpen.push(chain);
    waiting.set(id, stillOpen);
  }
  return chains;
}
