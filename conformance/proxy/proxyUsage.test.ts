import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import type { UsageFile } from '../../common/usage/clientUsage.ts';
import { startDeployment } from '../testing/deployment.ts';
import { operationOf, usageRecordOf } from './proxyUsage.ts';
import type { ProxyRecord } from './proxyRecord.ts';
import { proxyUsagePath, startProxy } from './startProxy.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the proxy\'s usage of each client', () => {
  it('names the contract\'s operation of a method and path, and none outside it', () => {
    expect(operationOf('GET', '/pets')).toBe('listPets');
    expect(operationOf('POST', '/pets')).toBe('createPet');
    expect(operationOf('GET', '/pets/12')).toBe('getPet');
    expect(operationOf('GET', '/store/orders')).toBe('listStoreOrders');
    expect(operationOf('DELETE', '/pets/12')).toBeUndefined();
    expect(operationOf('GET', '/pets/12/photos')).toBeUndefined();
  });

  it('claims no answer field of an answer it kept only in part', () => {
    const record: ProxyRecord = { seq: 1, sentAt: 0, method: 'GET', url: '/v1/pets', requestHeaders: {}, response: { status: 200, rawHeaders: [], bytes: new TextEncoder().encode('[{"id":1,"na'), truncated: true, durationMs: 1 } };
    expect(usageRecordOf(record, '/v1')).toEqual({ client: 'no-key', label: 'requests without a bearer key', operationId: 'listPets', status: 200 });
  });

  it('answers GET /__proxy/usage with what each key used, by digest, never the key or a value', async () => {
    const deployment = await startDeployment();
    open.push(deployment);
    const proxy = await startProxy({ target: deployment.baseUrl, spec: await testSpec() });
    open.push(proxy);
    const base = `${proxy.url}/v1`;
    const key = { authorization: 'Bearer demo-pro' };
    await send(`${base}/pets?limit=5&status=pending`, { headers: key });
    await send(`${base}/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Private', categoryId: 2, status: 'sold' }) });
    await send(`${base}/pets`);
    const answer = await send(`${proxy.url}${proxyUsagePath}`);
    expect(answer.status).toBe(200);
    const usage = JSON.parse(answer.body) as UsageFile;
    expect(usage).toEqual(await proxy.usage());
    expect(usage.source).toBe('proxy');
    expect(answer.body).not.toContain('demo-pro');
    expect(answer.body).not.toContain('Private');
    const byKey = usage.clients.find((c) => c.client.startsWith('key:'))!;
    expect(byKey.operations).toEqual([
      { operationId: 'listPets', method: 'GET', path: '/pets', requests: 1, query: { limit: ['in-range'], status: ['pending'] }, body: [], reads: { 200: ['categoryId', 'id', 'name', 'status'] }, statuses: [200] },
      { operationId: 'createPet', method: 'POST', path: '/pets', requests: 1, query: {}, body: ['categoryId', 'name', 'status'], reads: { 201: ['categoryId', 'id', 'name', 'status'] }, statuses: [201] },
    ]);
    expect(usage.clients.find((c) => c.client === 'no-key')!.operations[0]).toMatchObject({ operationId: 'listPets', statuses: [401], reads: { 401: ['code', 'message', 'status'] } });
  });
});
