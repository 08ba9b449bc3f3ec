import { showValue } from './echoes.ts';
import { findOperation } from '../../spec/loadSpec.ts';
import { requestName, type Check } from '../check.ts';
import { BEYOND_INT64, INT64_MAX } from '../cases/valueCase.ts';
import { integerText } from '../json/losslessJson.ts';
import { expectError } from './expectError.ts';

interface PathCase {
  name: string;
  id: string;
  what: string;
  /** 404: an int64 no pet has. 4xx: not an int64 at all, any refusal will do. */
  expect: 404 | '4xx';
}

export const getPet: Check = {
  id: 'get-pet',
  title: 'GET /pets/{petId} returns the pet, or refuses the id',
  severity: 'high',
  description:
    'A known id (from the preflight\'s list) gives that Pet, its id exact even past 2^53; an int64 no pet has ' +
    '(a large one, and int64\'s maximum) gives 404 with an Error body; an id that is not an int64 (a word, a ' +
    'fraction, a negative number, one past int64) is refused with a 4xx Error.',
  operations: ['getPet'],
  phase: 'active',
  async run(ctx, report) {
    const known = ctx.knownPets();
    const first = known[0];
    if (first) {
      const exchange = await ctx.send({ method: 'GET', path: ctx.petPath(first), auth: 'key', operationId: 'getPet', intent: 'valid', case: 'get-pet/path/petId/known' });
      if (exchange && report.expect(exchange.response.status === 200, exchange, `${requestName(exchange)} answered ${exchange.response.status}, but the list has a pet with that id; it must answer 200 with it.`)) {
        const pet = exchange.response.value as Record<string, unknown> | undefined;
        const id = integerText(pet?.id);
        report.expect(id === first.idText, exchange, `${requestName(exchange)} returned the pet with id ${id ?? showValue(pet?.id)}, not ${first.idText}.`);
        const differs = (['name', 'categoryId', 'status'] as const).filter((f) => first[f] !== undefined && pet?.[f] !== first[f] && integerText(pet?.[f]) !== integerText(first[f]));
        report.expect(differs.length === 0, exchange, `${requestName(exchange)} returned ${differs.map((f) => `${f} ${showValue(pet?.[f])}`).join(', ')} where the list said ${differs.map((f) => showValue(first[f])).join(', ')}.`);
      }
    } else {
      report.inconclusive('getPet', 'the deployment lists no pets, so there is no known id to fetch', 'get-pet/path/petId/known');
    }

    const rule = `${findOperation(ctx.spec, 'getPet').parameters.find((p) => p.in === 'path')?.name ?? 'petId'} is an int64`;
    // Far above every listed id, yet small enough for any int64 (or even int32) store.
    // A loop, not Math.max(...ids): a deployment that lists 170,000 pets must not overflow the stack.
    const unknown = String(known.reduce((max, p) => (Number.isSafeInteger(p.id) && p.id > max ? p.id : max), 0) + 1_000_000);
    const cases: PathCase[] = [
      { name: 'unknown', id: unknown, what: `id ${unknown}, which no pet has`, expect: 404 },
      { name: 'int64-max', id: INT64_MAX, what: `id ${INT64_MAX} (int64's maximum), which no pet has`, expect: 404 },
      { name: 'non-integer', id: 'abc', what: 'id abc', expect: '4xx' },
      { name: 'float', id: '1.5', what: 'id 1.5', expect: '4xx' },
      { name: 'negative', id: '-1', what: 'id -1', expect: '4xx' },
      { name: 'beyond-int64', id: BEYOND_INT64, what: `id ${BEYOND_INT64}, past int64`, expect: '4xx' },
    ];
    for (const c of cases) {
      if (known.some((p) => p.idText === c.id)) continue;
      const exchange = await ctx.send({ method: 'GET', path: `/pets/${c.id}`, auth: 'key', operationId: 'getPet', intent: 'invalid', case: `get-pet/path/petId/${c.name}` });
      if (!exchange) continue;
      expectError(report, ctx.validators, exchange, c.expect, c.what, c.expect === 404 ? `${rule} and no pet has it` : rule);
    }
  },
};
