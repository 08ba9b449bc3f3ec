// The get-pet check's judge: a listed id gives that pet as listed; an int64 no pet has gets 404, an
// id that is none a 4xx, each with an Error body (by the expectation its request carries). Any
// int64 may be an id ("Unique identifier assigned by the service"), a negative one or int64's
// maximum among them: an id the run took for one no pet has is answered 404, or 200 with the pet
// of exactly that id, which then exists; it is never refused as malformed.
import type { Exchange } from '../http/exchange.ts';
import { findOperation } from '../../spec/loadSpec.ts';
import { integerText, isInt64, toJsonText } from '../../common/json/losslessJson.ts';
import { judgeExpectation, judgeRefusal } from './judgeRefusal.ts';
import { requestName, unjudgeable } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import type { RunFacts } from './runFacts.ts';
import { isRemovedGetPet } from './removedOperation.ts';
import { viewRequest } from './requestView.ts';

/** The case of the first listed pet, fetched by its id. */
export const knownPetCase = 'get-pet/path/petId/known';

/** A value read losslessly, as JSON text with its integers exact: never throws on a BigInt, however deep. */
export const showValue = (value: unknown) => (value === undefined ? 'undefined' : toJsonText(value));

/** An int64 in its own decimal spelling (`-1`, `9223372036854775807`; not `01`, `+1`, `-0`). */
const int64Decimal = /^(0|-?[1-9]\d{0,18})$/;

/** The int64 a getPet request names in its path, in its own decimal spelling; undefined for anything else. */
function askedInt64(exchange: Exchange): string | undefined {
  const petId = viewRequest(exchange).petId;
  return petId !== undefined && int64Decimal.test(petId) && isInt64(BigInt(petId)) ? petId : undefined;
}

/**
 * An int64 the run took for an id no pet has: 404 with an Error body; or 200 with the Pet whose id
 * is exactly it, which says that pet exists (the service may assign any int64), so the case could
 * not be judged; anything else, a 200 with another pet or no Pet among it, fails.
 */
function judgeUnknownId(v: JudgementList, facts: RunFacts, exchange: Exchange, asked: string): void {
  const e = exchange.expect!;
  const what = e.rule === 'get-pet.unknown-404' ? e.what : `id ${asked}`;
  const because = e.rule === 'get-pet.unknown-404' ? e.because : `${e.because ?? 'petId is an int64'} and no pet has it`;
  const { status } = exchange.response;
  if (status !== 200 || unjudgeable(exchange) !== undefined) {
    judgeRefusal(v, facts.validators, 'get-pet.unknown-404', exchange, 404, what, because);
    return;
  }
  const where = requestName(exchange);
  const petSchema = facts.validators.schemaFor(findOperation(facts.validators.spec, 'getPet'), 200);
  const verdict = petSchema ? facts.validators.check(petSchema, exchange.response.json) : { valid: false, problem: 'the spec gives getPet no Pet' };
  const got = integerText((exchange.response.value as Record<string, unknown> | undefined)?.id);
  if (verdict.valid && got === asked) {
    v.inconclusive('get-pet.unknown-404', exchange, `${where} answered 200 with the pet whose id is ${asked}: the run took ${asked} for an id no pet has, but the deployment has a pet with it (the service may assign any int64 as an id), so this case cannot show whether an id no pet has gets 404.`);
    return;
  }
  const answered = !verdict.valid ? `a body that is no Pet (${verdict.problem})` : `the pet whose id is ${got ?? showValue((exchange.response.value as Record<string, unknown>).id)}`;
  v.fail('get-pet.unknown-404', exchange, `${where}, sent ${what}, was answered 200 with ${answered}; an int64 names the pet with exactly that id, or none, which is refused with 404 and an Error body.`);
}

export function judgeGetPet(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const first = facts.knownPets[0];
  for (const exchange of exchanges) {
    if (isRemovedGetPet(exchange)) {
      v.judgements.push({ rule: exchange.case === knownPetCase ? 'get-pet.known' : 'get-pet.unknown-404', operationId: 'getPet', exchange, outcome: 'inconclusive', message: `${requestName(exchange)} answered ${exchange.response.status} after 5 December 2030, getPet's announced removal: gone, as the contract announces, so what it would return cannot be judged.` });
      continue;
    }
    if (exchange.case !== knownPetCase) {
      // An int64 in decimal is an id whatever the plan called it: a pet's, or none (404), never malformed.
      const rule = exchange.expect?.rule;
      const asked = rule === 'get-pet.unknown-404' || rule === 'get-pet.malformed-4xx' ? askedInt64(exchange) : undefined;
      if (asked !== undefined) judgeUnknownId(v, facts, exchange, asked);
      else judgeExpectation(v, facts.validators, exchange);
      continue;
    }
    if (!first || !v.expect(exchange.response.status === 200, 'get-pet.known', exchange, () => `${requestName(exchange)} answered ${exchange.response.status}, but the list has a pet with that id; it must answer 200 with it.`)) continue;
    const pet = exchange.response.value as Record<string, unknown> | undefined;
    const id = integerText(pet?.id);
    v.expect(id === first.idText, 'get-pet.known', exchange, () => `${requestName(exchange)} returned the pet with id ${id ?? showValue(pet?.id)}, not ${first.idText}.`);
    const differs = (['name', 'categoryId', 'status'] as const).filter((f) => first[f] !== undefined && pet?.[f] !== first[f] && integerText(pet?.[f]) !== integerText(first[f]));
    v.expect(differs.length === 0, 'get-pet.known', exchange, () => `${requestName(exchange)} returned ${differs.map((f) => `${f} ${showValue(pet?.[f])}`).join(', ')} where the list said ${differs.map((f) => showValue(first[f])).join(', ')}.`, { each: true, fields: [...differs] });
  }
  if (!first) v.judgements.push({ rule: 'get-pet.known', operationId: 'getPet', outcome: 'inconclusive', message: 'the deployment lists no pets, so there is no known id to fetch', case: knownPetCase });
  return v.judgements;
}
