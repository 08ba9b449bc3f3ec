import { describe, expect, it } from 'vitest';
import type { ClientObservation } from './clientObservation.ts';
import { retryChains } from './retryChains.ts';
import { inSendingOrder } from './told.ts';

const T0 = Date.UTC(2026, 5, 1, 12, 30, 0);
const request = (at: number, status: number, extra: Partial<ClientObservation> = {}): ClientObservation => ({
  at: T0 + at, method: 'GET', url: '/v1/pets?limit=5', status, client: 'k1', clientLabel: 'demo…(9)', auth: 'bearer', ...extra,
});
/** The chains as the times (ms from T0) of their requests. */
const times = (requests: ClientObservation[]) => retryChains(inSendingOrder(requests)).map((chain) => chain.map((r) => r.at - T0));

describe('retryChains', () => {
  it('makes each of three tries sent at once a chain of its own, each retried after its failure', () => {
    const chains = retryChains(inSendingOrder([request(0, 503), request(0, 503), request(0, 503), request(1000, 503), request(1000, 200), request(1000, 200), request(3000, 200)]));
    expect(chains.map((chain) => chain.map((r) => [r.at - T0, r.status]))).toEqual([
      [[0, 503], [1000, 200]],
      [[0, 503], [1000, 200]],
      [[0, 503], [1000, 503], [3000, 200]],
    ]);
  });

  it('retries the earliest failure first, so tries that back off on their own stay apart', () => {
    expect(times([request(0, 503), request(0, 503), request(150, 503), request(300, 503), request(550, 200), request(1200, 200)])).toEqual([
      [0, 150, 550],
      [0, 300, 1200],
    ]);
  });

  it('takes a request within 100 ms of a failure for one sent with it, never for its retry', () => {
    expect(times([request(0, 503), request(100, 503), request(101, 200)])).toEqual([[0, 101], [100]]);
  });

  it('ends a chain at a success, and starts one for a request sent over five minutes after a failure', () => {
    expect(times([request(0, 200), request(1000, 503), request(301_000, 503), request(602_000, 200)])).toEqual([[0], [1000, 301_000], [602_000]]);
    expect(times([request(0, 503), request(300_001, 200)])).toEqual([[0], [300_001]]);
  });

  it('retries only the same request: another query, or a POST with another body, is a new one', () => {
    const post = (at: number, status: number, bodyDigest: string) => request(at, status, { method: 'POST', url: '/v1/pets', bodyDigest });
    expect(times([request(0, 503), request(1000, 200, { url: '/v1/pets?limit=6' })])).toEqual([[0], [1000]]);
    expect(times([post(0, 503, 'a'), post(1000, 201, 'b'), post(2000, 201, 'a')])).toEqual([[0, 2000], [1000]]);
  });
});
