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
    const request = { method: 'GET', path: '/v1/pets', params: {}, query, body: undefined };
    expect(validation.validate(listPets, request).query).toMatchObject({ limit: 5 });
    expect(validation.validate(listPets, request).query).toMatchObject({ limit: 5 });
    expect(query).toEqual({ limit: '5' });
  });

  it('answers a query without path parameters or body once: the same query object gets the same frozen parameters, another its own', async () => {
    const spec = await testSpec();
    const listPets = spec.operations.find((op) => op.operationId === 'listPets')!;
    const validation = requestValidation(spec, { strict: false });
    const request = (text: string) => ({ method: 'GET', path: '/v1/pets', params: {}, query: frozenQuery(text), body: undefined });
    const five = request('limit=5');
    const first = validation.validate(listPets, five);
    expect(validation.validate(listPets, five)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.query) && Object.isFrozen(first.params)).toBe(true);
    expect(validation.validate(listPets, request('limit=5'))).not.toBe(first);
    expect(validation.validate(listPets, request('limit=6')).query).toMatchObject({ limit: 6 });
    // A refusal is no answer kept: thrown each time.
    const bad = request('limit=0');
    expect(() => validation.validate(listPets, bad)).toThrow();
    expect(() => validation.validate(listPets, bad)).toThrow();
  });

  it('checks a request with a path parameter each time, whatever its query', async () => {
    const spec = await testSpec();
    const getPet = spec.operations.find((op) => op.operationId === 'getPet')!;
    const validation = requestValidation(spec, { strict: false });
    const query = frozenQuery('');
    const one = validation.validate(getPet, { method: 'GET', path: '/v1/pets/1', params: { petId: '1' }, query, body: undefined });
    const two = validation.validate(getPet, { method: 'GET', path: '/v1/pets/2', params: { petId: '2' }, query, body: undefined });
    expect([one.params, two.params]).toEqual([{ petId: 1 }, { petId: 2 }]);
  });

  it('names the query parameters an operation does not define, and refuses them under strict every time', async () => {
    const spec = await testSpec();
    const listPets = spec.operations.find((op) => op.operationId === 'listPets')!;
    const query = frozenQuery('limit=5&colour=red&=x&sort=name');
    expect(requestValidation(spec, { strict: false }).unknownQuery('listPets', query)).toEqual(['colour', 'sort']);
    expect(requestValidation(spec, { strict: false }).validate(listPets, { method: 'GET', path: '/v1/pets', params: {}, query, body: undefined }).query).toMatchObject({ limit: 5 });
    const strict = requestValidation(spec, { strict: true });
    for (let i = 0; i < 2; i++) expect(() => strict.validate(listPets, { method: 'GET', path: '/v1/pets', params: {}, query, body: undefined })).toThrow(/The query parameters "colour", "sort" are not defined for GET \/v1\/pets/);
  });
});
