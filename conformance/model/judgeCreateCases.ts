// The create-pet check's judge: a valid NewPet is created with 201 and an int64 id, and read back by
// that id as POST answered it (that the 201 holds every field as sent is data.created-as-sent's,
// judged by the model on every create of the run); an invalid one is refused as its expectation
// says (400 where the contract names it, any 4xx where it names none).
import type { Exchange, Expectation } from '../http/exchange.ts';
import { integerText, isInt64 } from '../../common/json/losslessJson.ts';
import { showValue } from './judgeGetPetCases.ts';
import { judgeExpectation } from './judgeRefusal.ts';
import { requestName } from './judgeable.ts';
import { isRemovedGetPet } from './removedOperation.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import type { RunFacts } from './runFacts.ts';

/** Two JSON values read losslessly are the same: integers by their digits, so 2^53 + 1 is not 2^53. */
export function sameValue(a: unknown, b: unknown): boolean {
  const ia = integerText(a);
  const ib = integerText(b);
  if (ia !== undefined || ib !== undefined) return ia === ib;
  return a === b;
}

/** The fields of `sent` a created or fetched pet does not hold as sent. */
export function differingFields(sent: Record<string, unknown>, got: Record<string, unknown> | undefined): string[] {
  return Object.keys(sent).filter((field) => sent[field] !== undefined && !sameValue(sent[field], got?.[field]));
}

/** The case of the read that follows a create, by the create's case. */
export const readBackCase = (createCase: string) => `${createCase}/read-back`;

function judgeCreated(v: JudgementList, exchange: Exchange, e: Expectation): void {
  const where = requestName(exchange);
  if (!v.expect(exchange.response.status === 201, 'create.valid-created', exchange, () => `${where} answered ${e.what} with ${exchange.response.status}; ${e.because}, so it must be created with 201.`)) return;
  const pet = exchange.response.value as Record<string, unknown> | undefined;
  const idText = integerText(pet?.id);
  const id = idText === undefined ? undefined : BigInt(idText);
  v.expect(id !== undefined && isInt64(id), 'create.valid-created', exchange, () => `${where} created a pet with id ${showValue(pet?.id)}; the service must assign an int64 id.`);
}

export function judgeCreatePet(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  for (const exchange of exchanges) {
    if (exchange.case?.endsWith('/read-back')) {
      // After the announced removal, getPet gone (410 or 404) is what the contract announced: the read cannot be judged.
      if (isRemovedGetPet(exchange)) {
        v.inconclusive('create.read-back', exchange, `answered ${exchange.response.status} after 5 December 2030, getPet's announced removal: gone, as the contract announces, so whether the created pet is readable by its id cannot be judged`);
        continue;
      }
      const create = exchanges.find((e) => e.case !== undefined && readBackCase(e.case) === exchange.case);
      if (!create || !v.expect(exchange.response.status === 200, 'create.read-back', exchange, () => `${requestName(exchange)} right after creating it answered ${exchange.response.status}; the created pet must be readable.`)) continue;
      const created = create.response.value as Record<string, unknown>;
      const back = exchange.response.value as Record<string, unknown> | undefined;
      const differs = differingFields({ id: created.id, name: created.name, categoryId: created.categoryId, status: created.status }, back);
      v.expect(differs.length === 0, 'create.read-back', exchange, () => `${requestName(exchange)} returned ${differs.map((f) => `${f} ${showValue(back?.[f])}`).join(', ')}, not what POST answered (${differs.map((f) => showValue(created[f])).join(', ')}).`, { each: true, fields: differs });
      continue;
    }
    const e = judgeExpectation(v, facts.validators, exchange);
    if (e !== undefined) judgeCreated(v, exchange, e);
  }
  return v.judgements;
}
