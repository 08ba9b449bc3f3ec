// The get-pet check's judge: a listed id gives that pet as listed; an int64 no pet has gets 404, an
// id that is none a 4xx, each with an Error body (by the expectation its request carries).
import type { Exchange } from '../http/exchange.ts';
import { integerText, toJsonText } from '../../common/json/losslessJson.ts';
import { judgeExpectation } from './judgeRefusal.ts';
import { requestName } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import type { RunFacts } from './runFacts.ts';
import { isRemovedGetPet } from './removedOperation.ts';

/** The case of the first listed pet, fetched by its id. */
export const knownPetCase = 'get-pet/path/petId/known';

/** A value read losslessly, as JSON text with its integers exact: never throws on a BigInt, however deep. */
export const showValue = (value: unknown) => (value === undefined ? 'undefined' : toJsonText(value));

export function judgeGetPet(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const first = facts.knownPets[0];
  for (const exchange of exchanges) {
    if (isRemovedGetPet(exchange)) {
      v.judgements.push({ rule: exchange.case === knownPetCase ? 'get-pet.known' : 'get-pet.unknown-404', operationId: 'getPet', exchange, outcome: 'inconclusive', message: `${requestName(exchange)} answered ${exchange.response.status} after 5 December 2030, getPet's announced removal: gone, as the contract announces, so what it would return cannot be judged.` });
      continue;
    }
    if (exchange.case !== knownPetCase) {
      judgeExpectation(v, facts.validators, exchange);
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
