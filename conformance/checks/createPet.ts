import type { NewPet } from '../../spec/types.ts';
import type { Check } from '../check.ts';
import { expectError } from './expectError.ts';
import { newPetBody } from './newPetBody.ts';
import { exactId } from '../idTexts.ts';

const INT64_MAX = 2 ** 63;

export const createPet: Check = {
  id: 'create-pet',
  title: 'POST /pets creates what it is sent, and refuses invalid bodies',
  severity: 'critical',
  description:
    'Valid NewPet bodies generated from the spec get 201 and a Pet that echoes them with a server-assigned ' +
    'int64 id, readable right after through GET /pets/{id}; bodies missing a required field, with wrong types, ' +
    'an enum violation or malformed JSON get 400 with an Error body. Skipped under --read-only.',
  operations: ['createPet', 'getPet'],
  phase: 'active',
  guard: (ctx) => (ctx.options.readOnly ? 'it writes, and --read-only is on' : undefined),
  async run(ctx, report) {
    const post = (body: string, intent: 'valid' | 'invalid') =>
      ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body, operationId: 'createPet', intent });

    for (const full of [true, false]) {
      const sent: NewPet = newPetBody(ctx, full);
      const created = await post(JSON.stringify(sent), 'valid');
      if (!report.expect(created.response.status === 201, created, `POST /pets with a valid NewPet ${JSON.stringify(sent)} answered ${created.response.status}; it must create the pet and answer 201.`)) continue;
      const pet = created.response.json as Record<string, unknown> | undefined;
      const id = pet?.id;
      if (!report.expect(typeof id === 'number' && Number.isInteger(id) && Math.abs(id) <= INT64_MAX, created, `POST /pets answered 201 with id ${JSON.stringify(id)}; the service must assign an int64 id.`)) continue;
      const echoes = (['name', 'categoryId', 'status'] as const).filter((field) => sent[field] !== undefined && pet?.[field] !== sent[field]);
      report.expect(echoes.length === 0, created, `POST /pets answered 201 with ${echoes.map((f) => `${f} ${JSON.stringify(pet?.[f])}`).join(', ')} where ${echoes.map((f) => `${JSON.stringify(sent[f])}`).join(', ')} was sent; the created Pet must echo the body.`);

      const read = await ctx.send({ method: 'GET', path: `/pets/${exactId(id as number, created.response.body)}`, auth: 'key', operationId: 'getPet', intent: 'valid' });
      if (!report.expect(read.response.status === 200, read, `GET /pets/${id} right after creating it answered ${read.response.status}; the created pet must be readable.`)) continue;
      const back = read.response.json as Record<string, unknown> | undefined;
      const differs = (['id', 'name', 'categoryId', 'status'] as const).filter((field) => pet?.[field] !== back?.[field]);
      report.expect(differs.length === 0, read, `GET /pets/${id} returned ${differs.map((f) => `${f} ${JSON.stringify(back?.[f])}`).join(', ')}, not what POST answered (${differs.map((f) => JSON.stringify(pet?.[f])).join(', ')}).`);
    }

    const valid = newPetBody(ctx, false);
    const invalid: [string, string][] = [
      ['name missing', JSON.stringify({ categoryId: valid.categoryId })],
      ['categoryId missing', JSON.stringify({ name: valid.name })],
      ['name not a string', JSON.stringify({ name: 12345, categoryId: valid.categoryId })],
      ['categoryId a string', JSON.stringify({ name: valid.name, categoryId: String(valid.categoryId) })],
      ['status outside PetStatus', JSON.stringify({ ...valid, status: 'not-a-status' })],
      ['malformed JSON', `{"name": ${JSON.stringify(valid.name)}, "categoryId": `],
    ];
    for (const [what, body] of invalid) {
      const exchange = await post(body, 'invalid');
      expectError(report, ctx.validators, exchange, 400, what);
    }
  },
};
