// What the judges ask of an answer before they judge it: whether it can judge a case at all, and
// whether its body came whole. Exchanges are named in findings by these too.
import type { Exchange } from '../http/exchange.ts';
import { isUnavailable } from '../http/pacedClient.ts';

/** `GET /pets?limit=1`: how findings name the request they are about, relative to the base URL. */
export function requestName(exchange: Pick<Exchange, 'request' | 'path'>): string {
  return `${exchange.request.method} ${exchange.path}`;
}

/** `GET https://…/v1/pets?limit=1`: the request with its full URL. */
export function requestLine(exchange: Pick<Exchange, 'request'>): string {
  return `${exchange.request.method} ${exchange.request.url}`;
}

/**
 * Why an answer cannot judge a case: a 429 the case did not ask for, or the run's own key refused.
 * The contract's rules are about what a deployment does with a request it serves; these say only
 * that it did not serve this one.
 */
export function unjudgeable(exchange: Exchange): string | undefined {
  const { status } = exchange.response;
  // Unavailable is not broken (RFC 9110, 15.6.3-5): the deployment did not get to the rule.
  if (isUnavailable(status)) return `${requestName(exchange)} was answered ${status}: the deployment was unavailable`;
  if (status === 429 && exchange.intent !== 'over-limit') return `${requestName(exchange)} was answered 429 (rate limited)`;
  if (exchange.bucket === 'key' && exchange.intent !== 'unauthenticated' && (status === 401 || status === 403)) {
    return `${requestName(exchange)} was answered ${status}: the deployment refused the run's own key`;
  }
  // The run's own budget cut the body: what the deployment sent is not known, so nothing is said of it.
  if (exchange.response.keptInPart !== undefined) return `${requestName(exchange)} was answered ${status}, but ${exchange.response.keptInPart}`;
  return undefined;
}

/**
 * Why a rule that needs the whole body cannot judge this answer's: the run's own budget kept only its
 * start (`keptInPart`), or it was longer than the suite reads (`--max-body`, which wire-format judges
 * alone, as one failure, not as JSON cut short).
 */
export function bodyNotWhole(exchange: Exchange): string | undefined {
  const { response } = exchange;
  if (response.keptInPart !== undefined) return `${requestName(exchange)} was answered ${response.status}, but ${response.keptInPart}`;
  if (response.truncated) return `${requestName(exchange)} was answered ${response.status} with a body longer than the suite reads (--max-body); wire-format judges that`;
  return undefined;
}

/**
 * Whether the rules of the documented operations judge this answer: not one to a method or path
 * the spec does not list (keyless-and-unlisted judges those), nor a 502, 503 or 504, which says
 * the deployment was unavailable and is counted in the verdict, not judged.
 */
export function judgedAsOperation(exchange: Exchange): boolean {
  return exchange.operationId !== 'unlisted' && !isUnavailable(exchange.response.status);
}
