import { describe, expect, it } from 'vitest';
import type { UsageFile } from '../../common/usage/clientUsage.ts';
import { testMock, type TestMock } from '../testing.ts';

const usage = async (mock: TestMock, query = '') => {
  const res = await mock.app.inject({ url: `/__mock/client-usage${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UsageFile;
};

describe('GET /__mock/client-usage', () => {
  it('writes out each client\'s operations, query kinds, body fields, answer fields and statuses, by name only and without its key', async () => {
    const mock = await testMock();
    await mock.call({ url: '/v1/pets?limit=5&status=sold', key: 'demo-free' });
    await mock.call({ url: '/v1/pets?limit=500', key: 'demo-free' });
    await mock.call({ method: 'POST', url: '/v1/pets', key: 'demo-free', payload: { name: 'Secret name', categoryId: 2 } });
    await mock.call({ url: '/v1/pets/999999', key: 'demo-free' });
    await mock.call({ url: '/v1/pets', key: 'demo-pro' });
    const file = await usage(mock, '?key=demo-free');
    expect(file).toMatchObject({ format: 'pets-usage/1', source: 'mock' });
    expect(file.clients).toHaveLength(1);
    const [client] = file.clients;
    expect(client!.client).toMatch(/^key:/);
    expect(client!.requests).toBe(4);
    expect(client!.operations).toEqual([
      { operationId: 'listPets', method: 'GET', path: '/pets', requests: 2, query: { limit: ['in-range', 'out-of-range'], status: ['sold'] }, body: [], reads: { 200: ['categoryId', 'id', 'name', 'status'], 400: ['code', 'message', 'status'] }, statuses: [200, 400] },
      { operationId: 'createPet', method: 'POST', path: '/pets', requests: 1, query: {}, body: ['categoryId', 'name'], reads: { 201: ['categoryId', 'id', 'name', 'status'] }, statuses: [201] },
      { operationId: 'getPet', method: 'GET', path: '/pets/{petId}', requests: 1, query: {}, body: [], reads: { 404: ['code', 'message', 'status'] }, statuses: [404] },
    ]);
    const text = JSON.stringify(await usage(mock));
    expect(text).not.toContain('demo-free');
    expect(text).not.toContain('Secret name');
    expect((await usage(mock)).clients).toHaveLength(2);
  });

  it('names the fields of a pet created and read back, and none of a body that is no JSON object', async () => {
    const mock = await testMock();
    const created = await mock.call({ method: 'POST', url: '/v1/pets', key: 'demo-free', payload: { name: 'Rex', categoryId: 2, status: 'sold' } });
    await mock.call({ url: `/v1/pets/${created.json().id}`, key: 'demo-free' });
    await mock.call({ method: 'POST', url: '/v1/pets', key: 'demo-free', payload: '[{"name":"Rex","categoryId":2}]', headers: { 'content-type': 'application/json' } });
    const [client] = (await usage(mock, '?key=demo-free')).clients;
    expect(client!.operations).toEqual([
      { operationId: 'createPet', method: 'POST', path: '/pets', requests: 2, query: {}, body: ['categoryId', 'name', 'status'], reads: { 201: ['categoryId', 'id', 'name', 'status'], 400: ['code', 'message', 'status'] }, statuses: [201, 400] },
      { operationId: 'getPet', method: 'GET', path: '/pets/{petId}', requests: 1, query: {}, body: [], reads: { 200: ['categoryId', 'id', 'name', 'status'] }, statuses: [200] },
    ]);
  });

  it('refuses a query it does not take, naming what it takes', async () => {
    const mock = await testMock();
    const res = await mock.app.inject({ url: '/__mock/client-usage?client=x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('takes only key');
  });
});
