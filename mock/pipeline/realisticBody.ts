import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import { componentSchema, responseSchema } from '../../spec/specModel.ts';
import type { Pet, PetStatus } from '../../spec/types.ts';
import { petStatuses } from '../../spec/types.ts';

export interface RealisticBodyRequest {
  op: SpecOperation;
  status: number;
  /** The `seed=` preference; a random one when absent (`dynamic=true` alone varies per answer). */
  seed: string | undefined;
  /** The query and path parameters, validated and coerced. */
  query: Record<string, unknown>;
  params: Record<string, unknown>;
}

/** A 32-bit number from any text (FNV-1a), so `seed=abc` seeds Faker as surely as `seed=42`. */
function seedNumber(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

const sameSchema = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

// Faker and its English locale take longer to load than the rest of the mock: loaded on the first
// forced answer that needs them, never at start.
let fakerModules: Promise<{ Faker: typeof import('@faker-js/faker').Faker; en: typeof import('@faker-js/faker').en; generatePets: typeof import('../../fixtures/generatePets.ts').generatePets }> | undefined;
const loadFaker = () =>
  (fakerModules ??= Promise.all([import('@faker-js/faker'), import('../../fixtures/generatePets.ts')]).then(([faker, fixtures]) => ({ Faker: faker.Faker, en: faker.en, generatePets: fixtures.generatePets })));

type BodyKind = 'list' | 'one' | 'open' | 'other';
/** What each response schema is, worked out on its first answer rather than on every one. */
const kinds = new WeakMap<object, BodyKind>();

function kindOf(spec: LoadedSpec, schema: object): BodyKind | undefined {
  let kind = kinds.get(schema);
  if (kind === undefined) {
    kind = sameSchema(schema, componentSchema(spec, 'Pets')) ? 'list' : sameSchema(schema, componentSchema(spec, 'Pet')) ? 'one' : isOpenList(schema) ? 'open' : 'other';
    kinds.set(schema, kind);
  }
  return kind === 'other' ? undefined : kind;
}

/**
 * A believable body for a forced 2xx answer whose schema is Pet or Pets: pets as the fixtures
 * generator makes them (names, categories, statuses), positive ids, lists of a realistic length
 * (up to the `limit` asked for, filtered by `status`), the same for the same seed. A list of
 * records the spec leaves open gets empty objects. Undefined for other schemas, whose body
 * Prism's answer keeps.
 */
export async function realisticBody(spec: LoadedSpec, { op, status, seed, query, params }: RealisticBodyRequest): Promise<unknown> {
  const schema = responseSchema(op, status);
  if (!schema) return undefined;
  const kind = kindOf(spec, schema);
  if (!kind) return undefined;
  const { Faker, en, generatePets } = await loadFaker();
  const seedValue = seedNumber(seed ?? String(Math.random()));
  const faker = new Faker({ locale: [en], seed: seedValue });
  if (kind === 'open') {
    // Records the spec shows nothing of (a store order): objects with no fields, none invented,
    // as many as a list of pets would hold.
    return Array.from({ length: faker.number.int({ min: 3, max: 20 }) }, () => ({}));
  }
  const firstId = faker.number.int({ min: 1, max: 5000 });
  if (kind === 'list') {
    const asked = wholeNumber(query.limit);
    const limit = asked !== undefined && asked >= 1 && asked <= 100 ? asked : 20;
    const count = Math.min(limit, faker.number.int({ min: 3, max: 20 }));
    const wanted = (petStatuses as readonly unknown[]).includes(query.status) ? (query.status as PetStatus) : undefined;
    return generatePets({ seed: seedValue, count, firstId }).map((pet) => (wanted ? { ...pet, status: wanted } : pet));
  }
  // The pet asked for by id keeps that id, when it is one the mock could hold.
  const asked = Object.values(params).map(wholeNumber).find((n) => n !== undefined && n >= 1);
  return generatePets({ seed: seedValue, count: 1, firstId: asked ?? firstId })[0] as Pet;
}

/** A list whose items the spec leaves open: no type, no fields, only words about them. */
function isOpenList(schema: { type?: unknown; items?: unknown }): boolean {
  if (schema.type !== 'array' || typeof schema.items !== 'object' || schema.items === null) return false;
  return Object.keys(schema.items).every((key) => key === 'description' || key === 'title');
}

function wholeNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}
