import { describe, expect, it } from 'vitest';
import type { ClientUsage, OperationUsage } from '../../common/usage/clientUsage.ts';
import type { Finding } from '../check.ts';
import { describePlace, findingPlace, usedBy } from './findingPlace.ts';

const finding = (rule: string | undefined, parts: Partial<Finding> = {}, status = 200): Finding => ({
  level: 'failure',
  message: 'm',
  occurrences: 1,
  ...(rule ? { rule: { id: rule, quote: 'q' } } : {}),
  evidence: { request: { method: 'GET', url: '/v1/pets', headers: {} }, response: { status, headers: {}, bodyExcerpt: '' }, curl: '' },
  ...parts,
});

const op = (operationId: string, parts: Partial<OperationUsage> = {}): OperationUsage => ({ operationId, method: 'GET', path: '/pets', requests: 1, query: {}, body: [], reads: {}, statuses: [], ...parts });
const client = (...operations: OperationUsage[]): ClientUsage => ({ client: 'key:x', label: 'x', requests: 1, operations });

describe('where a failure lies in the contract', () => {
  it('places a schema failure about Pet.status of a list on that field of 2xx answers', () => {
    const place = findingPlace('listPets', finding('body.schema', { fields: ['status'] }));
    expect(place).toEqual({ operationId: 'listPets', fields: ['status'], answerStatus: 200 });
    expect(describePlace(place)).toBe('the answer field status of listPets (GET /pets) answered 200');
    expect(usedBy(place, client(op('listPets', { reads: { 200: ['id', 'name'] } })))).toBe(false);
    expect(usedBy(place, client(op('listPets', { reads: { 200: ['id', 'status'] } })))).toBe(true);
    // An Error's status is another field than a Pet's.
    expect(usedBy(place, client(op('listPets', { reads: { 200: ['id'], 401: ['status'] } })))).toBe(false);
    expect(usedBy(place, client(op('getPet', { reads: { 200: ['status'] } })))).toBe(false);
  });

  it('places an Error status unlike the HTTP status on the Error\'s status of error answers', () => {
    const place = findingPlace('getPet', finding('error.status-equal', { fields: ['status'] }, 404));
    expect(usedBy(place, client(op('getPet', { reads: { 200: ['status'], 404: ['message'] } })))).toBe(false);
    expect(usedBy(place, client(op('getPet', { reads: { 401: ['status'] } })))).toBe(true);
  });

  it('places a filter failure on the status parameter, and a refusal rule on the kinds of value it refuses', () => {
    const filter = findingPlace('listPets', finding('data.status-filter'));
    expect(usedBy(filter, client(op('listPets', { query: { limit: ['in-range'] }, reads: { 200: ['status'] } })))).toBe(false);
    expect(usedBy(filter, client(op('listPets', { query: { status: ['sold'] } })))).toBe(true);
    const refused = findingPlace('listPets', finding('page.refused'));
    expect(describePlace(refused)).toBe('the query parameter limit (values: out-of-range, not-integer) of listPets (GET /pets)');
    expect(usedBy(refused, client(op('listPets', { query: { limit: ['in-range'] } })))).toBe(false);
    expect(usedBy(refused, client(op('listPets', { query: { limit: ['in-range', 'out-of-range'] } })))).toBe(true);
  });

  it('places a read-back that differs on those fields of both reads: the suite cannot say which one is wrong', () => {
    const place = findingPlace('getPet', finding('get-pet.known', { fields: ['status'] }));
    expect(place).toMatchObject({ operationId: 'getPet', fields: ['status'], alsoIn: ['listPets'] });
    expect(describePlace(place)).toBe('the answer field status of getPet (GET /pets/{petId}) answered 200 (or of listPets, read before)');
    expect(usedBy(place, client(op('listPets', { reads: { 200: ['status'] } })))).toBe(true);
    expect(usedBy(place, client(op('getPet', { reads: { 200: ['status'] } })))).toBe(true);
    expect(usedBy(place, client(op('listPets', { reads: { 200: ['name'] } }), op('createPet', { reads: { 201: ['status'] } })))).toBe(false);
  });

  it('places a failure without fields on its whole operation', () => {
    const place = findingPlace('createPet', finding('create.valid-created'));
    expect(place).toEqual({ operationId: 'createPet' });
    expect(usedBy(place, client(op('listPets')))).toBe(false);
    expect(usedBy(place, client(op('createPet')))).toBe(true);
  });

  it('places on every client what it cannot place: rules of the key, of HTTP and framing, requests outside the operations, findings without a rule', () => {
    const nobody = client();
    for (const [operationId, rule] of [['listPets', 'auth.wrong-key-401'], ['getPet', 'framing.length-exact'], ['listPets', 'http.date'], ['createPet', 'headers.rate-limit-present'], ['unlisted', 'status.no-5xx'], ['getPet', undefined]] as const) {
      const place = findingPlace(operationId, finding(rule, { fields: ['status'] }));
      expect(place.everyClient, `${operationId} ${rule}`).toBe(true);
      expect(usedBy(place, nobody)).toBe(true);
    }
  });
});
