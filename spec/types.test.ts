import { expect, expectTypeOf, it } from 'vitest';
// Imported the way frontend code imports it: through the package's `./types` export.
import { petStatuses, type ErrorBody, type NewPet, type Pet, type PetStatus } from 'pet-adoption-toolkit/types';
import { componentSchema, loadSpec } from './loadSpec.ts';

it('exports the contract\'s types to frontend code through pet-adoption-toolkit/types', async () => {
  const spec = await loadSpec();
  expect([...petStatuses]).toEqual(componentSchema(spec, 'PetStatus').enum);
  expectTypeOf<Pet>().toMatchTypeOf<NewPet & { id: number }>();
  expectTypeOf<NewPet>().toEqualTypeOf<{ name: string; categoryId: number; status?: PetStatus }>();
  expectTypeOf<ErrorBody>().toEqualTypeOf<{ code: string; message: string; status: number }>();
});
