import { findOperation } from '../../spec/loadSpec.ts';
import type { Check } from '../check.ts';
import { BEYOND_INT64, INT64_MAX } from '../cases/valueCase.ts';
import type { Expectation } from '../http/exchange.ts';
import { judgeGetPet, knownPetCase } from '../model/judgeGetPetCases.ts';

interface PathCase {
  name: string;
  id: string;
  expect: Expectation;
}

export const getPet: Check = {
  id: 'get-pet',
  title: 'GET /pets/{petId} returns the pet, or refuses the id',
  severity: 'high',
  description:
    'A known id (from the preflight\'s list) gives that Pet, its id exact even past 2^53; an int64 no listed pet has ' +
    '(a large one, int64\'s maximum, and -1: any int64 may be an id) gives 404 with an Error body, or 200 with the pet of ' +
    'exactly that id, which then exists (inconclusive); an id that is not an int64 (a word, a fraction, one past int64) ' +
    'is refused with a 4xx Error.',
  operations: ['getPet'],
  phase: 'active',
  async send(ctx) {
    const known = ctx.knownPets();
    const first = known[0];
    if (first) await ctx.send({ method: 'GET', path: ctx.petPath(first), auth: 'key', operationId: 'getPet', intent: 'valid', case: knownPetCase });

    const rule = `${findOperation(ctx.spec, 'getPet').parameters.find((p) => p.in === 'path')?.name ?? 'petId'} is an int64`;
    // Far above every listed id, yet small enough for any int64 (or even int32) store.
    // A loop, not Math.max(...ids): a deployment that lists 170,000 pets must not overflow the stack.
    const unknown = String(known.reduce((max, p) => (Number.isSafeInteger(p.id) && p.id > max ? p.id : max), 0) + 1_000_000);
    const notFound = (what: string): Expectation => ({ rule: 'get-pet.unknown-404', answer: 'refuse', status: 404, what, because: `${rule} and no pet has it` });
    const malformed = (what: string): Expectation => ({ rule: 'get-pet.malformed-4xx', answer: 'refuse', status: '4xx', what, because: rule });
    const cases: PathCase[] = [
      { name: 'unknown', id: unknown, expect: notFound(`id ${unknown}, which no pet has`) },
      { name: 'int64-max', id: INT64_MAX, expect: notFound(`id ${INT64_MAX} (int64's maximum), which no pet has`) },
      // Zero, which code reading a missing id as falsy trips on: an int64 like any other.
      { name: 'zero', id: '0', expect: notFound('id 0, which no pet has') },
      { name: 'non-integer', id: 'abc', expect: malformed('id abc') },
      { name: 'float', id: '1.5', expect: malformed('id 1.5') },
      // A negative id is an int64 like any other ("Unique identifier assigned by the service"): a pet's, or none.
      { name: 'negative', id: '-1', expect: notFound('id -1 (a negative int64), which no pet has') },
      { name: 'beyond-int64', id: BEYOND_INT64, expect: malformed(`id ${BEYOND_INT64}, past int64`) },
    ];
    for (const c of cases) {
      if (known.some((p) => p.idText === c.id)) continue;
      await ctx.send({ method: 'GET', path: `/pets/${c.id}`, auth: 'key', operationId: 'getPet', intent: 'invalid', case: `get-pet/path/petId/${c.name}`, expect: c.expect });
    }
  },
  judge: (input) => judgeGetPet(input.exchanges, input),
};
