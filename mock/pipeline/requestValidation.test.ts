import { describe, expect, it } from 'vitest';
import { testSpec } from '../testing.ts';
import { frozenQuery } from './readRequest.ts';
import { requestValidation } from './requestValidation.ts';

describe('requestValidation', () => {
  it('coerces and defaults a copy of the query: the parsed query, shared by every request that sends it, stays as sent', async () => {
    const spec = await testSpec();
    const listPets = spec.operations.find((op) => op.operationId === 'listPets')!;
    const validation = requestValidation(spec, { strict: false });
    const query = frozenQuery('limit=5');
    const request = { method: 'GET', path: '/v1/pets', params: {}, query, body: undefined, unknownQuery: null };
    expect(validation.validate(listPets, request).query).toMatchObject({ limit: 5 });
    expect(validation.validate(listPets, request).query).toMatchObject({ limit: 5 });
    expect(query).toEqual({ limit: '5' });
  });
});
