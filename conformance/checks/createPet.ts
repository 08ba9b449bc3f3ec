import { componentSchema } from '../../spec/loadSpec.ts';
import { requestName, type Check, type CheckContext, type Outcomes } from '../check.ts';
import { bodyCases, type BodyCase } from '../cases/bodyCases.ts';
import type { Exchange } from '../http/exchange.ts';
import { integerText, isInt64, toJsonText } from '../json/losslessJson.ts';
import { differingFields, showValue } from './echoes.ts';
import { expectError, expectOpen } from './expectError.ts';
import { knownCategoryIds, newPetBody } from './newPetBody.ts';

/** Random valid bodies (json-schema-faker, seeded by --seed) a `full` run adds. */
const randomBodies = { quick: 0, full: 8 } as const;

function post(ctx: CheckContext, c: Pick<BodyCase, 'body' | 'contentType' | 'expect'>, caseName: string) {
  return ctx.send({
    method: 'POST',
    path: '/pets',
    auth: 'key',
    headers: { 'content-type': c.contentType },
    ...(c.body !== undefined ? { body: c.body } : {}),
    operationId: 'createPet',
    intent: c.expect === 'accept' ? 'valid' : 'invalid',
    case: caseName,
  });
}

/**
 * Judges a 201 to a valid body: an int64 id assigned by the service and every field echoed as
 * sent. Returns the created pet's id text when it is one.
 */
function judgeCreated(report: Outcomes, exchange: Exchange, c: BodyCase): string | undefined {
  const where = requestName(exchange);
  if (!report.expect(exchange.response.status === 201, exchange, `${where} answered ${c.what} with ${exchange.response.status}; ${c.rule}, so it must be created with 201.`)) return undefined;
  const pet = exchange.response.value as Record<string, unknown> | undefined;
  const idText = integerText(pet?.id);
  const id = idText === undefined ? undefined : BigInt(idText);
  if (!report.expect(id !== undefined && isInt64(id), exchange, `${where} created a pet with id ${showValue(pet?.id)}; the service must assign an int64 id.`)) return undefined;
  const differs = differingFields(c.sent ?? {}, pet);
  report.expect(differs.length === 0, exchange, `${where} answered 201 with ${differs.map((f) => `${f} ${showValue(pet?.[f])}`).join(', ')} where ${differs.map((f) => showValue(c.sent?.[f])).join(', ')} was sent; the created Pet must echo the body.`);
  return idText;
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
    'no NewPet (none, null, an array, a string, a number, malformed JSON) are refused with 400, the status the contract ' +
    'names for them (a 422 there fails), and a form body with any 4xx, each with an Error body. --depth full adds random valid bodies. Skipped under --read-only.',
  operations: ['createPet', 'getPet'],
  phase: 'active',
  guard: (ctx) => (ctx.options.readOnly ? 'it writes, and --read-only is on' : undefined),
  async run(ctx, report) {
    const schema = componentSchema(ctx.spec, 'NewPet');
    const base = newPetBody(ctx, true) as unknown as Record<string, unknown>;
    const cases = bodyCases(schema, base, 'NewPet');
    for (let i = 0; i < randomBodies[ctx.options.depth === 'full' ? 'full' : 'quick']; i++) {
      const sent = newPetBody(ctx, ctx.random() < 0.5) as unknown as Record<string, unknown>;
      cases.push({ name: `body/random-${i + 1}`, body: toJsonText(sent), contentType: 'application/json', sent, expect: 'accept', what: `the random NewPet ${toJsonText(sent)}`, rule: 'it is a valid NewPet' });
    }
    const readBack = new Set(['body/required-only', 'body/all-properties']);

    // With no pet listed, no categoryId is known to exist: a valid body may then be refused for naming none.
    const categoriesKnown = knownCategoryIds(ctx).length > 0;
    for (const listed of cases) {
      // Nor can a refusal be pinned to 400: the body's categoryId may be refused first for naming none.
      const c = !categoriesKnown && listed.expect === 'accept' ? { ...listed, expect: 'may-refuse' as const } : !categoriesKnown ? { ...listed, refusedWith: undefined } : listed;
      const caseName = `create-pet/${c.name}`;
      const exchange = await post(ctx, c, caseName);
      if (!exchange) continue;
      // An invalid NewPet is refused with the 400 the contract names; a valid one a deployment may
      // refuse by a rule of its own (a category it does not have) with any 4xx.
      if (c.expect === 'refuse' || (c.expect === 'may-refuse' && exchange.response.status >= 400 && exchange.response.status !== 429)) {
        expectError(report, ctx.validators, exchange, c.expect === 'refuse' ? (c.refusedWith ?? '4xx') : '4xx', c.what, c.expect === 'refuse' && c.refusedWith !== undefined ? `${c.rule}, and the contract names ${c.refusedWith} for a body "missing required fields or [with] invalid values"` : c.rule);
        continue;
      }
      if (c.expect === 'open') {
        expectOpen(report, ctx.validators, exchange, c.what, c.rule);
        continue;
      }
      const idText = judgeCreated(report, exchange, c);
      if (idText === undefined || !readBack.has(c.name)) continue;
      const read = await ctx.send({ method: 'GET', path: `/pets/${idText}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: `${caseName}/read-back` });
      if (!read) continue;
      if (!report.expect(read.response.status === 200, read, `${requestName(read)} right after creating it answered ${read.response.status}; the created pet must be readable.`)) continue;
      const created = exchange.response.value as Record<string, unknown>;
      const back = read.response.value as Record<string, unknown> | undefined;
      const differs = differingFields({ id: created.id, name: created.name, categoryId: created.categoryId, status: created.status }, back);
      report.expect(differs.length === 0, read, `${requestName(read)} returned ${differs.map((f) => `${f} ${showValue(back?.[f])}`).join(', ')}, not what POST answered (${differs.map((f) => showValue(created[f])).join(', ')}).`);
    }
  },
};
