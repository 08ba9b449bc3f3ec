import { toJsonText } from '../json/losslessJson.ts';
import { requestName, type Check, type CheckContext } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { integerText } from '../json/losslessJson.ts';
import { differingFields, showValue } from './echoes.ts';
import { getList, limitBounds, listed, statusValues } from './listPets.ts';
import { knownCategoryIds, newPetBody } from './newPetBody.ts';
import { expectError } from './expectError.ts';

const idsOf = (items: unknown[]) => items.map((item) => integerText((item as { id?: unknown } | null)?.id)).filter((id): id is string => id !== undefined);

async function create(ctx: CheckContext, body: Record<string, unknown>, caseName: string): Promise<{ exchange: Exchange; id?: string } | undefined> {
  const exchange = await ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body: toJsonText(body), operationId: 'createPet', intent: 'valid', case: caseName });
  if (!exchange) return undefined;
  const id = exchange.response.status === 201 ? integerText((exchange.response.value as { id?: unknown } | undefined)?.id) : undefined;
  return { exchange, ...(id !== undefined ? { id } : {}) };
}

export const petLifecycle: Check = {
  id: 'pet-lifecycle',
  title: 'What is created can be fetched and listed, under a new id',
  severity: 'critical',
  description:
    'Follows the operations as a client does: lists every status, creates two pets, then fetches one by the id ' +
    'POST gave and finds both in the list filtered by their status (with a limit that reaches them). Each new id ' +
    'differs from every id listed before and from the other, and an id the client sends is never taken. Skipped under --read-only.',
  operations: ['createPet', 'getPet', 'listPets'],
  phase: 'active',
  guard: (ctx) => (ctx.options.readOnly ? 'it writes, and --read-only is on' : undefined),
  async run(ctx, report) {
    const { max } = limitBounds(ctx);
    const seen = new Set(ctx.knownPets().map((p) => p.idText));
    const counts = new Map<string, number>();
    for (const status of statusValues(ctx)) {
      const items = listed(await getList(ctx, { status: [status], limit: [String(max)] }, `pet-lifecycle/list-before/${status}`));
      if (!items) continue;
      for (const id of idsOf(items)) seen.add(id);
      counts.set(status, items.length);
    }
    // The status with the fewest pets, so a page of `max` is most likely to reach the new ones.
    const status = [...counts.entries()].sort((a, b) => a[1] - b[1])[0]?.[0] ?? statusValues(ctx)[0];
    const base = newPetBody(ctx, false) as unknown as Record<string, unknown>;
    const bodies = ['a', 'b'].map((tag) => ({ ...base, name: `pets-conformance lifecycle ${tag} ${Math.floor(ctx.random() * 1e9)}`, ...(status ? { status } : {}) }));

    const created: { id: string; body: Record<string, unknown>; exchange: Exchange }[] = [];
    for (const [index, body] of bodies.entries()) {
      const result = await create(ctx, body, `pet-lifecycle/create-${index + 1}`);
      if (!result) continue;
      const { status: answered } = result.exchange.response;
      if (knownCategoryIds(ctx).length === 0 && answered >= 400 && answered < 500) {
        // No pet was listed, so no categoryId is known to exist: a refusal may be for naming none.
        report.inconclusive('createPet', `answered ${answered}: the deployment lists no pets, so no categoryId is known to exist`, `pet-lifecycle/create-${index + 1}`);
        continue;
      }
      if (!report.expect(result.id !== undefined, result.exchange, `${requestName(result.exchange)} answered ${result.exchange.response.status}${result.exchange.response.status === 201 ? ' without an integer id' : ''}; a valid NewPet must be created with 201 and an id.`)) continue;
      const id = result.id!;
      report.expect(!seen.has(id), result.exchange, `${requestName(result.exchange)} gave the new pet id ${id}, which ${created.some((c) => c.id === id) ? 'the previous create also gave' : 'a pet listed before already has'}; every new pet needs an id of its own.`);
      seen.add(id);
      created.push({ id, body, exchange: result.exchange });
    }
    // An id is the service's to assign: one the client sends is ignored or refused, never taken.
    const known = ctx.knownPets()[0];
    if (known) {
      const body = toJsonText({ ...base, name: `pets-conformance lifecycle c ${Math.floor(ctx.random() * 1e9)}` }).replace(/}$/, `,"id":${known.idText}}`);
      const withId = await ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body, operationId: 'createPet', intent: 'invalid', case: 'pet-lifecycle/create-with-id' });
      if (withId && withId.response.status >= 200 && withId.response.status < 300) {
        const id = integerText((withId.response.value as { id?: unknown } | undefined)?.id);
        report.expect(id !== undefined && !seen.has(id), withId, `${requestName(withId)} with the id ${known.idText} of a listed pet in the body created a pet with id ${id ?? 'none'}; the service assigns ids, so a new pet never takes one already used.`);
      } else if (withId) {
        expectError(report, ctx.validators, withId, '4xx', `a NewPet carrying the id ${known.idText}`, 'a client may not choose the id');
      }
    }

    const first = created[0];
    if (!first) return;

    const read = await ctx.send({ method: 'GET', path: `/pets/${first.id}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: 'pet-lifecycle/get-created' });
    if (read && report.expect(read.response.status === 200, read, `${requestName(read)} answered ${read.response.status} for the pet just created with that id; it must answer 200 with it.`)) {
      const pet = read.response.value as Record<string, unknown> | undefined;
      const differs = differingFields({ ...first.body, id: BigInt(first.id) }, pet);
      report.expect(differs.length === 0, read, `${requestName(read)} returned ${differs.map((f) => `${f} ${showValue(pet?.[f])}`).join(', ')} for the pet just created with ${differs.map((f) => showValue(f === 'id' ? first.id : first.body[f])).join(', ')}.`);
    }

    if (!status) return;
    const page = await getList(ctx, { status: [status], limit: [String(max)] }, 'pet-lifecycle/list-created');
    const items = listed(page);
    if (!page || !report.expect(items !== undefined, page, `${requestName(page)} answered ${page.response.status}; it must list pets with 200.`)) return;
    if (items!.length >= max) {
      report.inconclusive('listPets', `${items!.length} pets have status ${status}, so a page of ${max} may not reach the new ones`, 'pet-lifecycle/list-created');
      return;
    }
    const ids = new Set(idsOf(items!));
    const missing = created.filter((c) => !ids.has(c.id));
    report.expect(missing.length === 0, page, `${requestName(page)} lists ${items!.length} pets, all that have status ${status}, yet not the new pet${missing.length > 1 ? 's' : ''} ${missing.map((c) => c.id).join(' and ')} created with that status.`);
  },
};
