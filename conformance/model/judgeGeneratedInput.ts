// What a generated request's own value asks of its answer: a valid one is served, a forbidden one
// refused with a 4xx (a JSON NewPet with the 400 the contract names). That one a deployment may
// refuse is never answered 5xx is status.no-5xx's, as of every answer; the model judges the rest.
import type { Exchange } from '../http/exchange.ts';
import { integerText, parseLossless, type LosslessValue } from '../../common/json/losslessJson.ts';
import { requestName } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import { knownCategoryIds, type RunFacts } from './runFacts.ts';

/** The integer categoryId of a create's body read as JSON (any text of it: spaces, escapes), as digits. */
function categoryOf(exchange: Exchange): string | undefined {
  let body: LosslessValue;
  try {
    body = parseLossless(exchange.request.body ?? '');
  } catch {
    return undefined;
  }
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? integerText(body.categoryId) : undefined;
}

/** The request's body is labelled JSON (any case, any parameters: RFC 9110, 8.3.1). */
function isJsonLabelled(exchange: Exchange): boolean {
  const type = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function describe(exchange: Exchange): string {
  const body = exchange.request.body;
  if (body === undefined) return `the ${exchange.case?.split('/').pop() ?? 'request'}`;
  return body.length > 120 ? `a body of ${body.length} characters (${body.slice(0, 60)}…)` : `the body ${body}`;
}

/** The generated traffic's input rules over its exchanges; a request sent again while shrinking is not judged twice. */
export function judgeGeneratedInput(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const known = knownCategoryIds(facts.knownPets);
  for (const exchange of exchanges) {
    if (exchange.replay) continue;
    const { status } = exchange.response;
    const exactKey = /^Bearer \$PETS_API_KEY(_2)?$/.test(exchange.request.headers.authorization ?? '');
    // A categoryId none of the deployment's own pets has may name no category, which it may refuse
    // ("Fields of a category record: not shown"), before or instead of saying what else is wrong.
    const category = categoryOf(exchange);
    const mayNameNoCategory = category === undefined || !known.includes(category);
    if (exchange.intent === 'valid' && exactKey && !(exchange.operationId === 'createPet' && mayNameNoCategory) && (exchange.operationId === 'createPet' || exchange.operationId === 'listPets')) {
      v.expect(status < 400 || status === 401 || status === 403, 'input.valid-served', exchange, () => `${requestName(exchange)} sent ${describe(exchange)}, a valid request, and was answered ${status}; ${exchange.operationId === 'createPet' ? 'a NewPet of any characters, up to 40 of them, with a categoryId the deployment\'s own pets have, is created with 201' : 'a list with a valid limit and status is answered 200'}.`, { kind: `valid ${exchange.operationId}` });
    } else if (exchange.intent === 'invalid') {
      // A NewPet that breaks the schema gets the 400 the contract names for it; anything else the
      // contract forbids names no status, so any 4xx refuses it.
      const pinned = exchange.operationId === 'createPet' && isJsonLabelled(exchange) && !(category !== undefined && !known.includes(category)) ? 400 : undefined;
      const refused = pinned !== undefined ? status === pinned : status >= 400 && status < 500 && status !== 401;
      v.expect(refused, 'input.invalid-refused', exchange, () => `${requestName(exchange)} sent ${describe(exchange)} and was answered ${status}; ${pinned !== undefined ? `a body "missing required fields or [with] invalid values" is refused with ${pinned}, the status the contract names for it` : 'a value the contract forbids is refused with a 4xx Error'}. The contract: "400 | Error. The body is missing required fields or has invalid values."`, { kind: `invalid ${exchange.case?.split('/').slice(2).join('/')}` });
    }
  }
  return v.judgements;
}
