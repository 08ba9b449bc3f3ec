import { JSONSchemaFaker } from 'json-schema-faker';
import { componentSchema } from '../../spec/loadSpec.ts';
import type { NewPet } from '../../spec/types.ts';
import type { CheckContext } from '../check.ts';

/**
 * A valid NewPet generated from the spec's schema with json-schema-faker, seeded by the run.
 * `full` fills the optional fields too. The categoryId is taken from a pet the deployment already
 * has when there is one, because the contract does not show which categories exist and a
 * deployment may refuse an unknown one.
 */
export function newPetBody(ctx: CheckContext, full: boolean): NewPet {
  JSONSchemaFaker.option({ random: () => ctx.random(), alwaysFakeOptionals: full, optionalsProbability: full ? 1 : 0, failOnInvalidFormat: false, minLength: 1 });
  const schema = { ...componentSchema(ctx.spec, 'NewPet') };
  const generated = JSONSchemaFaker.generate(schema as never) as unknown as NewPet;
  // Exact, even past 2^53 (a BigInt, written by toJsonText): a deployment's own categories are valid.
  const known = ctx.knownPets().filter((p) => typeof p.categoryId === 'bigint' || Number.isSafeInteger(p.categoryId));
  const body: NewPet = {
    ...generated,
    // Short and trimmed: the contract shows no maximum length, and a deployment may well have one.
    name: generated.name.trim().slice(0, 40).trim() || 'Conformance pet',
    categoryId: known.length > 0 ? (known[Math.floor(ctx.random() * known.length)]!.categoryId as number) : 1 + Math.floor(ctx.random() * 8),
  };
  if (!full) delete body.status;
  return body;
}
