// @vitest-environment jsdom
// Where a global `window` exists, the $ref resolver takes a path for a web address: the spec must
// still load from disk (component tests run in jsdom).
import { describe, expect, it } from 'vitest';
import { loadSpec, validateSpec, defaultSpecPath } from './loadSpec.ts';

describe('loadSpec under jsdom', () => {
  it('reads, validates and dereferences the document from disk, not from the page origin', async () => {
    expect(typeof window).toBe('object');
    const spec = await loadSpec();
    expect(spec.operations.map((o) => o.operationId)).toEqual(['listPets', 'createPet', 'getPet', 'listStoreOrders']);
    expect(JSON.stringify(spec.document)).not.toContain('"$ref"');
    await expect(validateSpec(defaultSpecPath)).resolves.toBeUndefined();
  });

  it('names a document it cannot read', async () => {
    await expect(loadSpec('/nonexistent/openapi.yaml')).rejects.toThrow(/^Cannot read the OpenAPI document \/nonexistent\/openapi\.yaml: .*Check the path\.$/);
  });
});
