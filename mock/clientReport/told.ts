// What a client had been told when it sent a request. The mock cannot see a client send: it sees
// a request handed over (`arrivedAt`) and its own answers given (`at`), in an order each host
// decides for itself. A page's seven requests sent at once reach the Node server one after the
// other, each often after the answer before it was given; Chromium holds a seventh until one of
// its six connections is free; MSW in Node hands all seven over before answering any. So the order
// of arrival says nothing of what the client knew, and is never read: only the mock's clock is.
// A request handed over within `atOnceMs` of an answer (on a frozen clock, at the same instant) may
// have been sent with the request that answer was for, and counts as sent with it, not after it;
// one handed over later was sent by a client that had its answer. On a frozen clock a client's
// waits are the clock's moves, so this is the same on every host and every run; what it cannot tell
// apart is a request resent at once after an answer from one sent together with the first.
import type { ClientObservation } from './clientObservation.ts';

/**
 * How long after an answer a request may still reach the mock though the client sent it before
 * having that answer, on a real clock: seven requests a page sends at once reach the mock one after
 * the other (through a host's event loop, Playwright's protocol, or after one of Chromium's six
 * connections frees), over 12 to 190 ms on this project's two cores under a load of 15, a few on
 * an idle machine. On the frozen clock of a test no host spreads an instant.
 */
export const atOnceMs = 100;

/** When the client sent the request, as near as the mock knows: when its host was handed it. */
export const sentAt = (r: ClientObservation): number => r.arrivedAt ?? r.at;

/** Whether the client had been given `answer` when it sent `r`: `r` came more than `atOnceMs` after it. */
export const told = (answer: ClientObservation, r: ClientObservation): boolean => sentAt(r) - answer.at > atOnceMs;

/**
 * A client's requests in the order it sent them, one order whatever order its host handed them
 * over in: by when sent and answered, then requests of one instant by what they were (method, URL,
 * body, answer), so that the same requests give the same report on every host.
 */
export function inSendingOrder(requests: readonly ClientObservation[]): ClientObservation[] {
  return requests.map((r) => [r, sortKey(r)] as const).sort(([a, ka], [b, kb]) => sentAt(a) - sentAt(b) || a.at - b.at || (ka < kb ? -1 : ka > kb ? 1 : 0)).map(([r]) => r);
}

const sortKey = (r: ClientObservation) =>
  JSON.stringify([r.method, r.url, r.bodyDigest ?? '', r.status, r.code ?? '', r.retryAfter ?? -1, r.remaining ?? -1, r.reset ?? -1, r.auth, r.keyElsewhere ?? false, r.operationId ?? '']);
