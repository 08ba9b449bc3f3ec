import { toJsonText } from '../../common/json/losslessJson.ts';
import type { Check } from '../check.ts';
import { integerText } from '../../common/json/losslessJson.ts';
import { listed } from '../model/judgeListCases.ts';
import type { Exchange } from '../http/exchange.ts';
import { judgeLifecycle, lifecycleCases } from '../model/judgeLifecycle.ts';
import { locationToRead } from '../model/locationToRead.ts';
import { limitBounds, statusValues } from '../model/listBounds.ts';
import { getList } from './listPets.ts';
import { queryString } from '../cases/queryCases.ts';
import { conditionalOn } from '../model/judgeLifecycle.ts';
import { newPetBody } from './newPetBody.ts';

export const petLifecycle: Check = {
  id: 'pet-lifecycle',
  title: 'What is created can be fetched and listed, under a new id',
  severity: 'critical',
  description:
    'Follows the operations as a client does: lists every status, creates two pets, then fetches one by the id ' +
    'POST gave and finds both in the list filtered by their status (with a limit that reaches them). Each new id ' +
    'differs from every id listed before and from the other, and an id the client sends is never taken. A Location ' +
    'that names another URL of the deployment than the pet\'s under the base is read too, and must lead to the pet. ' +
    'Skipped under --read-only.',
  operations: ['createPet', 'getPet', 'listPets'],
  phase: 'active',
  guard: (ctx) => (ctx.options.readOnly ? 'it writes, and --read-only is on' : undefined),
  async send(ctx) {
    const { max } = limitBounds(ctx.spec);
    const statuses = statusValues(ctx.spec);
    const counts = new Map<string, number>();
    const before = new Map<string, Exchange>();
    for (const status of statuses) {
      const answer = await getList(ctx, { status: [status], limit: [String(max)] }, lifecycleCases.listBefore(status));
      const items = listed(answer);
      if (items) counts.set(status, items.length);
      if (answer) before.set(status, answer);
    }
    // The status with the fewest pets, so a page of `max` is most likely to reach the new ones.
    const status = [...counts.entries()].sort((a, b) => a[1] - b[1])[0]?.[0] ?? statuses[0];
    const base = newPetBody(ctx, false) as unknown as Record<string, unknown>;
    const bodies = ['a', 'b'].map((tag) => ({ ...base, name: `pets-conformance lifecycle ${tag} ${Math.floor(ctx.random() * 1e9)}`, ...(status ? { status } : {}) }));
    const created: string[] = [];
    let firstCreate: Exchange | undefined;
    for (const [index, body] of bodies.entries()) {
      const exchange = await ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body: toJsonText(body), operationId: 'createPet', intent: 'valid', case: lifecycleCases.create(index + 1), expect: { rule: 'lifecycle.created', answer: 'accept', what: 'a valid NewPet', sent: body } });
      const id = exchange?.response.status === 201 ? integerText((exchange.response.value as { id?: unknown } | undefined)?.id) : undefined;
      if (id !== undefined) created.push(id);
      if (id !== undefined && created.length === 1) firstCreate = exchange;
    }
    // An id is the service's to assign: one the client sends is ignored or refused, never taken.
    const known = ctx.knownPets()[0];
    if (known) {
      const body = toJsonText({ ...base, name: `pets-conformance lifecycle c ${Math.floor(ctx.random() * 1e9)}` }).replace(/}$/, `,"id":${known.idText}}`);
      await ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body, operationId: 'createPet', intent: 'invalid', case: lifecycleCases.withId, expect: { rule: 'lifecycle.client-id-ignored', answer: 'may-refuse', status: '4xx', what: `a NewPet carrying the id ${known.idText}`, because: 'a client may not choose the id' } });
    }
    const first = created[0];
    if (first === undefined) return;
    await ctx.send({ method: 'GET', path: `/pets/${first}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: lifecycleCases.getCreated });
    // Where the Location says the pet is, when that is elsewhere on the deployment (RFC 9110, 15.3.2).
    const location = firstCreate && locationToRead(firstCreate, first);
    if (location) await ctx.send({ method: 'GET', path: location.path, auth: 'key', operationId: location.operationId, intent: 'valid', case: lifecycleCases.readLocation });
    // The same list again, conditional on what it was before the creates, as a client that caches
    // it asks (RFC 9110, 13.1): it has changed, so it is answered whole, not 304.
    if (status) await ctx.send({ method: 'GET', path: `/pets${queryString({ status: [status], limit: [String(max)] })}`, auth: 'key', operationId: 'listPets', intent: 'valid', case: lifecycleCases.listCreated, headers: conditionalOn(before.get(status)) });
  },
  judge: (input) => judgeLifecycle(input.exchanges, input),
  modelRules: ['data.new-id'],
};
