// Requests without the key, and methods and paths the spec does not list: never served without
// the key, and refused the way the contract refuses.
import { isErrorBody } from './errorBody.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import type { Exchange } from '../http/exchange.ts';
import { broken, held, holds, type Judgement } from './judgement.ts';
import type { ModelState } from './modelState.ts';
import { keyToken, type RequestView } from './requestView.ts';

const rateHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

const carriesError = (exchange: Exchange): boolean => isErrorBody(exchange.response.json, exchange.response.status);

/** A body that is not JSON at all: a server that parses it before the key may refuse it first. */
function unparsableBody(view: RequestView): boolean {
  if (view.body === undefined || view.body === '') return false;
  try {
    JSON.parse(view.body);
    return false;
  } catch {
    return true;
  }
}

export function judgeAccess(exchange: Exchange, view: RequestView, state: ModelState): Judgement[] {
  const { status } = exchange.response;
  const out: Judgement[] = [];
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${status})`;
  const keyless = view.credential.kind !== 'key';
  // A 429 to a keyless request is the client address's quota, and a 503 says nothing of the rule.
  if (status === 429 || isUnavailable(status)) return out;

  if (keyless && view.operation !== undefined) {
    if (view.operation === 'listStoreOrders') {
      out.push(holds(status < 200 || status >= 300, 'auth.keyless-refused', view.operation, exchange, () => `${where}: served without a valid key (${describe(view)}); every operation requires the key.`));
    } else if (!(status === 400 && unparsableBody(view)) && !(status === 413 || status === 415)) {
      out.push(holds(status === 401, 'auth.keyless-refused', view.operation, exchange, () => `${where}: ${describe(view)} must be answered 401 with an Error body, whatever else the request holds or whichever connection carries it.`));
    }
  }

  if (view.operation === undefined) {
    if (keyless) {
      const served = status >= 200 && status < 300 && view.method !== 'OPTIONS';
      out.push(holds(!served, 'unlisted.not-served-without-key', 'unlisted', exchange, () => `${where}: ${view.method} ${view.pathname} was served without a valid key (${describe(view)}); every endpoint requires authentication.`));
    }
    if (status >= 500) {
      // RFC 9110, 15.6.2: 501 is how a server says it does not support a method.
      if (status === 501) out.push(held('status.no-5xx', 'unlisted', exchange));
      else out.push(broken('status.no-5xx', 'unlisted', exchange, `${where}: a method or path the spec does not list was answered ${status}; it is served or refused (4xx), a 5xx says the server failed.`));
    } else {
      out.push(held('status.no-5xx', 'unlisted', exchange));
    }
    // A refusal's body the run's own budget kept only in part is not judged.
    if (status >= 400 && status < 500 && exchange.response.keptInPart === undefined) {
      const missing = rateHeaders.filter((h) => exchange.response.headers[h] === undefined);
      const needsBody = view.method !== 'HEAD';
      const errorOk = !needsBody || carriesError(exchange);
      out.push(
        holds(missing.length === 0 && errorOk, 'unlisted.refusal-shape', 'unlisted', exchange, () =>
          [missing.length > 0 ? `lacks ${missing.join(', ')}, which every response carries` : '', errorOk ? '' : `has the body ${JSON.stringify(exchange.response.body.slice(0, 80))}, not an Error {code, message, status: ${status}}`].filter(Boolean).join(' and ').replace(/^/, `${where} refused `).replace(/$/, '.'),
        ),
      );
    }
  }
  return out;
}

function describe(view: RequestView): string {
  if (view.credential.kind === 'none') return 'no Authorization header';
  return `Authorization ${JSON.stringify(view.headers.authorization)}`;
}
