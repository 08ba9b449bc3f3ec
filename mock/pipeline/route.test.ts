import { describe, expect, it } from 'vitest';
import { testMock, testSpec } from '../testing.ts';
import { routeTable } from './route.ts';

describe('the router', () => {
  it('decodes each segment on its own: an encoded slash stays in its segment, %252F is the text %2F', async () => {
    const match = routeTable(await testSpec());
    expect(match('/%70ets', 'GET')?.op?.operationId).toBe('listPets');
    expect(match('/pets/', 'GET')?.template).toBe('/pets');
    expect(match('/pets/a%2Fb', 'GET')?.params).toEqual({ petId: 'a/b' });
    expect(match('/pets/%252F', 'GET')?.params).toEqual({ petId: '%2F' });
    expect(match('/pets/1/2', 'GET')).toBeUndefined();
    expect(match('/pets/7', 'PROPFIND')).toMatchObject({ op: undefined, served: ['GET', 'HEAD'] });
  });

  it('reads a control path the same way: a key sent as abc%252Fdef is abc%2Fdef, which no key may be', async () => {
    const mock = await testMock();
    try {
      const answer = await mock.app.inject({ method: 'PUT', url: '/__mock/keys/abc%252Fdef', payload: { plan: 'pro' } });
      expect(answer.statusCode).toBe(400);
      expect((await mock.app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer abc/def' } })).statusCode).toBe(401);
    } finally {
      await mock.app.close();
    }
  });
});
