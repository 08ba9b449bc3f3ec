import { afterEach, describe, expect, it } from 'vitest';
import { openInProcessMock } from './inProcessMock.ts';
import type { PetsMockHost } from './petsMockHost.ts';

let core: PetsMockHost;
afterEach(() => core?.close());

describe('the control handle\'s usage()', () => {
  it('writes out what each client used, as GET /__mock/client-usage does, one client with its key', async () => {
    core = await openInProcessMock();
    await core.handle({ method: 'GET', url: `${core.address.baseUrl}/pets?limit=2`, headers: { authorization: 'Bearer demo-pro' } });
    await core.handle({ method: 'GET', url: `${core.address.baseUrl}/pets/1`, headers: { authorization: 'Bearer demo-free' } });
    const usage = await core.control.usage('demo-pro');
    expect(usage).toMatchObject({ format: 'pets-usage/1', source: 'mock' });
    expect(usage.clients.map((c) => c.operations.map((o) => o.operationId))).toEqual([['listPets']]);
    expect(usage.clients[0]!.operations[0]).toMatchObject({ query: { limit: ['in-range'] }, reads: { 200: ['categoryId', 'id', 'name', 'status'] }, statuses: [200] });
    expect((await core.control.usage()).clients).toHaveLength(2);
  });
});
