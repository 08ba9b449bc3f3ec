import { componentSchema } from '../../spec/loadSpec.ts';
import type { Check, CheckContext } from '../check.ts';
import { bodyCases, type BodyCase } from '../cases/bodyCases.ts';
import type { Expectation } from '../http/exchange.ts';
import { integerText, isInt64, toJsonText } from '../../common/json/losslessJson.ts';
import { judgeCreatePet, readBackCase } from '../model/judgeCreateCases.ts';
import { knownCategoryIds } from '../model/runFacts.ts';
import { refusedMarker } from '../model/judgeData.ts';
import { newPetBody } from './newPetBody.ts';

/** Random valid bodies (json-schema-faker, seeded by --seed) a `full` run adds. */
const randomBodies = { quick: 0, full: 8 } as const;

function post(ctx: CheckContext, c: Pick<BodyCase, 'body' | 'contentType'>, caseName: string, expect: Expectation) {
  return ctx.send({
    method: 'POST',
    path: '/pets',
    auth: 'key',
    headers: { 'content-type': c.contentType },
    ...(c.body !== undefined ? { body: c.body } : {}),
    operationId: 'createPet',
    intent: expect.answer === 'accept' ? 'valid' : 'invalid',
    case: caseName,
    expect,
  });
}

/**
 * A body to be refused, its name made one no other request sends (unless the name is what it tests):
 * a pet listed under it can come only from that refused create (data.refused-unstored).
 */
function markRefused(c: BodyCase, name: unknown): BodyCase {
  const written = `"name":${JSON.stringify(name)}`;
  if (c.expect !== 'refuse' || typeof name !== 'string' || c.body === undefined || c.name.startsWith('body/name/') || !c.body.includes(written)) return c;
  const marked = `${refusedMarker}${c.name.slice('body/'.length)}`;
  return { ...c, body: c.body.replace(written, `"name":${JSON.stringify(marked)}`), ...(c.sent !== undefined ? { sent: { ...c.sent, name: marked } } : {}) };
}

/**
 * What a body case demands of its answer. An invalid NewPet is refused with the 400 the contract
 * names; a valid one a deployment may refuse by a rule of its own (a category it does not have)
 * with any 4xx; one the contract does not say how to read may be either.
 */
function expectationOf(c: BodyCase): Expectation {
  const base = { what: c.what, because: c.rule, ...(c.sent !== undefined ? { sent: c.sent } : {}) };
  if (c.expect === 'refuse') {
    return { rule: 'create.invalid-400', answer: 'refuse', status: c.refusedWith ?? '4xx', ...base, because: c.refusedWith !== undefined ? `${c.rule}, and the contract names ${c.refusedWith} for a body "missing required fields or [with] invalid values"` : c.rule };
  }
  if (c.expect === 'open') return { rule: 'create.open', answer: 'open', ...base };
  if (c.expect === 'may-refuse') return { rule: 'create.valid-created', answer: 'may-refuse', status: '4xx', ...base };
  return { rule: 'create.valid-created', answer: 'accept', ...base };
}

export const createPet: Check = {
  id: 'create-pet',
  title: 'POST /pets creates what it is sent, and refuses every invalid body',
  severity: 'critical',
  description:
    'Cases generated from NewPet in the spec: bodies with only the required properties, with every property, ' +
    'with each PetStatus and with integers at the edges JSON holds exactly get 201 and a Pet that echoes them ' +
    '(readable right after through GET /pets/{id}); each required property missing, each property of each wrong ' +
    'JSON type, integers past int64 or fractional, an enum value unknown or in another case, and bodies that are ' +
    'no NewPet (none, null, an array, a string, a number, an empty object, every field true, malformed JSON) are refused with 400, the status the contract ' +
    'names for them (a 422 there fails), and a form body with any 4xx, each with an Error body. --depth full adds random valid bodies. Skipped under --read-only.',
  operations: ['createPet', 'getPet'],
  phase: 'active',
  guard: (ctx) => (ctx.options.readOnly ? 'it writes, and --read-only is on' : undefined),
  async send(ctx) {
    const schema = componentSchema(ctx.spec, 'NewPet');
    const base = newPetBody(ctx, true) as unknown as Record<string, unknown>;
    const cases = bodyCases(schema, base, 'NewPet');
    for (let i = 0; i < randomBodies[ctx.options.depth === 'full' ? 'full' : 'quick']; i++) {
      const sent = newPetBody(ctx, ctx.random() < 0.5) as unknown as Record<string, unknown>;
      cases.push({ name: `body/random-${i + 1}`, body: toJsonText(sent), contentType: 'application/json', sent, expect: 'accept', what: `the random NewPet ${toJsonText(sent)}`, rule: 'it is a valid NewPet' });
    }
    const readBack = new Set(['body/required-only', 'body/all-properties']);

    // With no pet listed, no categoryId is known to exist: a valid body may then be refused for naming none.
    const categoriesKnown = knownCategoryIds(ctx.knownPets()).length > 0;
    for (const listed of cases.map((c) => markRefused(c, base.name))) {
      // Nor can a refusal be pinned to 400: the body's categoryId may be refused first for naming none.
      const c = !categoriesKnown && listed.expect === 'accept' ? { ...listed, expect: 'may-refuse' as const } : !categoriesKnown ? { ...listed, refusedWith: undefined } : listed;
      const caseName = `create-pet/${c.name}`;
      const exchange = await post(ctx, c, caseName, expectationOf(c));
      if (!exchange || exchange.response.status !== 201 || !readBack.has(c.name)) continue;
      // A pet created is read back by the id it was given.
      const idText = integerText((exchange.response.value as { id?: unknown } | undefined)?.id);
      if (idText !== undefined && isInt64(BigInt(idText))) await ctx.send({ method: 'GET', path: `/pets/${idText}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: readBackCase(caseName) });
    }
  },
  judge: (input) => judgeCreatePet(input.exchanges, input),
  modelRules: ['data.created-as-sent'],
};
