// A key is a secret wherever a client puts it: in the Authorization header (the contract's way),
// in a query string, in a JSON body, in a cookie. None of what the mock writes (its access log,
// the request log, the client report, its answers' messages) holds a valid key in clear.
import { describe, expect, test } from 'vitest';
import { testMock } from './testing.ts';

const keys = ['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise'];

describe('a key sent in any part of a request', () => {
  test('is written in clear neither to the access log, the request log, the client report nor an answer', async () => {
    let accessLog = '';
    const mock = await testMock({ accessLog: (text) => (accessLog += text) });
    const answers: string[] = [];
    try {
      const sent = [
        // The header, as the contract says, and misspelt.
        await mock.call({ url: '/v1/pets?limit=1', key: 'demo-pro' }),
        await mock.call({ url: '/v1/pets?limit=1', key: null, headers: { authorization: 'Token demo-business' } }),
        await mock.call({ url: '/v1/pets?limit=1', key: null, headers: { 'x-api-key': 'demo-enterprise' } }),
        // The query string.
        await mock.call({ url: '/v1/pets?api_key=demo-pro', key: null }),
        await mock.call({ url: '/v1/pets?limit=2&access_token=demo-business', key: null }),
        // A JSON body: as a field of the pet, and as its name.
        await mock.call({ method: 'POST', url: '/v1/pets', key: 'demo-pro', payload: { name: 'Rex', categoryId: 1, apiKey: 'demo-free' } }),
        await mock.call({ method: 'POST', url: '/v1/pets', key: null, payload: { name: 'Rex', categoryId: 1, api_key: 'demo-enterprise' } }),
        // A cookie.
        await mock.call({ url: '/v1/pets?limit=1', key: null, headers: { cookie: 'api_key=demo-free; session=abc' } }),
      ];
      for (const answer of sent) answers.push(answer.body);
      // The unknown field is the mock's open choice to ignore or refuse (docs/contract-choices.md).
      expect(sent.map((a) => a.statusCode)).toEqual([200, 401, 401, 401, 401, expect.any(Number), 401, 401]);
      const requests = (await mock.app.inject({ url: '/__mock/requests' })).body;
      const report = (await mock.app.inject({ url: '/__mock/client-report' })).body;
      const reportText = (await mock.app.inject({ url: '/__mock/client-report', headers: { accept: 'text/markdown' } })).body;
      for (const [name, written] of Object.entries({ accessLog, requests, report, reportText, answers: answers.join('\n') })) {
        for (const key of keys) expect(written, `${key} in ${name}`).not.toContain(key);
      }
      expect((JSON.parse(requests) as { requests: unknown[] }).requests).toHaveLength(8);
    } finally {
      await mock.app.close();
    }
  });
});
