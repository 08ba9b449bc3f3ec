// HTTP itself as part of the model, beside the contract: every answer of a run linted as REDbot
// lints one, each field a deployment sends parsed with its grammar and held to its meaning, and
// each status held to what the exchange and the run's earlier answers show (RFC 9110, 9111, 9112,
// 3986, 6750, 8288). `learnHttp` then moves the model's memory on.
import type { Exchange } from '../http/exchange.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import { answerOf } from './http/answerFields.ts';
import { judgeAuthFields } from './http/judgeAuthFields.ts';
import { judgeCacheFields, judgeSharedCacheServed } from './http/judgeCacheFields.ts';
import { judgeConditional } from './http/judgeConditional.ts';
import { judgeControlFields } from './http/judgeControlFields.ts';
import { judgeCorsFields } from './http/judgeCorsFields.ts';
import { judgeFieldSyntax } from './http/judgeFieldSyntax.ts';
import { judgeHead } from './http/judgeHead.ts';
import { judgeKeyValidity } from './http/judgeKeyValidity.ts';
import { judgeRepresentationFields } from './http/judgeRepresentationFields.ts';
import { judgeStatusSemantics } from './http/judgeStatusSemantics.ts';
import { judgeValidatorFields } from './http/judgeValidatorFields.ts';
import type { Judgement } from './judgement.ts';
import type { ModelState } from './modelState.ts';
import type { RequestView } from './requestView.ts';

export { learnHttp } from './http/learnHttp.ts';

/** Judges one answer against HTTP and what the run showed before it. Pure: the state is read, never changed. */
export function judgeHttp(exchange: Exchange, view: RequestView, state: ModelState): Judgement[] {
  // What a gateway says while the deployment is down is not the deployment's answer.
  if (isUnavailable(exchange.response.status)) return [];
  const answer = answerOf(exchange, view);
  const memory = state.http;
  return [
    ...judgeFieldSyntax(answer),
    ...judgeStatusSemantics(answer, memory),
    ...judgeRepresentationFields(answer),
    ...judgeValidatorFields(answer),
    ...judgeCacheFields(answer),
    ...judgeSharedCacheServed(answer, memory),
    ...judgeControlFields(answer),
    ...judgeAuthFields(answer),
    ...judgeCorsFields(answer),
    ...judgeConditional(answer, memory),
    ...judgeHead(answer, memory),
    ...judgeKeyValidity(answer, memory),
  ];
}
