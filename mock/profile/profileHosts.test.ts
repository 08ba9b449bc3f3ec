import { describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { createBrowserPetsMock } from '../adapters/browserPetsMock.ts';
import { openInProcessMock } from '../adapters/inProcessMock.ts';
import { testSpec } from '../testing.ts';
import type { DeploymentProfile } from './profile.ts';

const profile: DeploymentProfile = { errors: { unauthorized: { code: 'UNAUTHENTICATED' } }, defaultStatus: null };
const created = (body: string) => JSON.parse(body) as { status?: string };

describe('every host of the mock takes a profile and makes its choices', () => {
  it('buildMock (fastify, the plugin\'s app)', async () => {
    const app = await buildMock({ spec: await testSpec(), profile });
    try {
      expect((await app.inject({ method: 'GET', url: '/v1/pets' })).json()).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
      const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' }, payload: '{"name":"Rex","categoryId":1}' });
      expect(created(res.body).status).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('the in-process mock under MSW in Node, Playwright and Vite, and the browser\'s', async () => {
    for (const open of [() => openInProcessMock({ profile }), () => createBrowserPetsMock({ profile })]) {
      const host = await open();
      try {
        const res = await host.handle({ method: 'GET', url: 'http://127.0.0.1:4010/v1/pets', headers: {} });
        expect(JSON.parse(new TextDecoder().decode(res.body!))).toMatchObject({ code: 'UNAUTHENTICATED' });
      } finally {
        await host.close();
      }
    }
  });
});
