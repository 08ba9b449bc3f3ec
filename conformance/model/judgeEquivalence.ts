// Equivalent spellings of one request (header-name case, media-type case and parameters, Accept,
// parameter order, percent-encoding, the scheme's case) must get the same status.
import { isUnavailable } from '../http/pacedClient.ts';
import type { Exchange } from '../http/exchange.ts';
import { holds, type Judgement } from './judgement.ts';
import type { ModelState } from './modelState.ts';
import type { RequestView } from './requestView.ts';

export function judgeEquivalence(exchange: Exchange, view: RequestView, state: ModelState): Judgement[] {
  const group = exchange.equivalence;
  const op = view.operation;
  if (group === undefined || op === undefined) return [];
  const status = exchange.response.status;
  if (status === 429 || isUnavailable(status)) return [];
  const first = state.equivalents.get(group);
  if (!first) return [];
  return [
    holds(first.status === status, 'equivalent.same-status', op, exchange, () => {
      const diff = describeDifference(exchange);
      return `#${exchange.seq} ${view.method} ${exchange.path} was answered ${status}, but the same request spelled another way (#${first.seq} ${first.path}) was answered ${first.status}${diff ? `; this one differs only in ${diff}` : ''}. HTTP makes these spellings equivalent (RFC 9110: header names, the auth scheme and media types are case-insensitive).`;
    }, [first.seq]),
  ];
}

function describeDifference(exchange: Exchange): string | undefined {
  return exchange.case?.split('/').pop();
}

export function learnEquivalence(exchange: Exchange, state: ModelState): void {
  const group = exchange.equivalence;
  const status = exchange.response.status;
  if (group === undefined || state.equivalents.has(group) || status === 429 || isUnavailable(status)) return;
  state.equivalents.set(group, { seq: exchange.seq, status, path: exchange.path });
}
