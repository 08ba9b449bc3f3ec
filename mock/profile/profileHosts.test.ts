import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { createBrowserPetsMock } from '../adapters/browserPetsMock.ts';
import { openInProcessMock } from '../adapters/inProcessMock.ts';
import { petsMockMiddleware } from '../adapters/petsMockMiddleware.ts';
import { testSpec } from '../testing.ts';
import type { DeploymentProfile } from './profile.ts';

const profile: DeploymentProfile = { errors: { unauthorized: { code: 'UNAUTHENTICATED' } }, defaultStatus: null, keylessUnlisted: 'unauthorized', preflight: 'unlisted' };
const created = (body: string) => JSON.parse(body) as { status?: string };

/** A profile whose body limit is past the hosts' own 1 MiB, and whose keyless limit is not the Free plan's. */
const limits: DeploymentProfile = { bodyLimit: 2 * 1024 * 1024, keylessLimit: { perMinute: 5 } };
/** A create body of 1.5 MiB the mock refuses as invalid once read whole (categoryId is not an integer). */
const bigInvalidBody = JSON.stringify({ name: 'Rex', categoryId: 'x'.repeat(1.5 * 1024 * 1024) });
const postHeaders = { authorization: 'Bearer demo-pro', 'content-type': 'application/json' };

describe('every host of the mock takes a profile and makes its choices', () => {
  it('buildMock (fastify, the plugin\'s app)', async () => {
    const app = await buildMock({ spec: await testSpec(), profile });
    try {
      expect((await app.inject({ method: 'GET', url: '/v1/pets' })).json()).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
      // The key asked before routing, and OPTIONS no preflight: the core's pipeline, whatever the host.
      expect((await app.inject({ method: 'DELETE', url: '/v1/pets' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'OPTIONS', url: '/v1/pets', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })).statusCode).toBe(401);
      const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' }, payload: '{"name":"Rex","categoryId":1}' });
      expect(created(res.body).status).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('buildMock answers a body refused for a reason of the profile\'s with that reason\'s code', async () => {
    const app = await buildMock({ spec: await testSpec(), profile: { maxNameLength: 3, errors: { invalidBody: { code: 'VALIDATION_FAILED' }, nameTooLong: { code: 'NAME_TOO_LONG' } } } });
    try {
      const long = await app.inject({ method: 'POST', url: '/v1/pets', headers: postHeaders, payload: '{"name":"Rexana","categoryId":1}' });
      const missing = await app.inject({ method: 'POST', url: '/v1/pets', headers: postHeaders, payload: '{"categoryId":1}' });
      expect([long.statusCode, long.json().code, missing.statusCode, missing.json().code]).toEqual([400, 'NAME_TOO_LONG', 400, 'VALIDATION_FAILED']);
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
        expect((await host.handle({ method: 'PATCH', url: 'http://127.0.0.1:4010/v1/nowhere', headers: {} })).status).toBe(401);
      } finally {
        await host.close();
      }
    }
  });
});

describe('every host reads a body to the profile\'s body limit and counts keyless requests at its keyless limit', () => {
  it('buildMock reads past its own 1 MiB', async () => {
    const app = await buildMock({ spec: await testSpec(), profile: limits });
    try {
      const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: postHeaders, payload: bigInvalidBody });
      expect([res.statusCode, res.json().code]).toEqual([400, 'INVALID_BODY']);
      expect((await app.inject({ method: 'GET', url: '/v1/pets' })).headers['x-ratelimit-limit']).toBe('5');
    } finally {
      await app.close();
    }
  });

  it('the in-process hosts (MSW, Playwright) and the browser\'s', async () => {
    for (const open of [() => openInProcessMock({ profile: limits }), () => createBrowserPetsMock({ profile: limits })]) {
      const host = await open();
      try {
        expect(host.bodyLimit).toBe(limits.bodyLimit);
        const res = await host.handle({ method: 'POST', url: 'http://127.0.0.1:4010/v1/pets', headers: postHeaders, body: new TextEncoder().encode(bigInvalidBody) });
        expect([res.status, JSON.parse(new TextDecoder().decode(res.body!)).code]).toEqual([400, 'INVALID_BODY']);
        expect((await host.handle({ method: 'GET', url: 'http://127.0.0.1:4010/v1/pets', headers: {} })).headers['x-ratelimit-limit']).toBe('5');
      } finally {
        await host.close();
      }
    }
  });

  it('the middleware of the Vite plugin, over HTTP', async () => {
    const middleware = petsMockMiddleware({ basePath: '/api/v1', configuredIn: 'this test', profile: limits });
    const server: Server = createServer((req, res) => middleware(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(async () => {
      await middleware.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await fetch(`${origin}/api/v1/pets`, { method: 'POST', headers: postHeaders, body: bigInvalidBody });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([400, 'INVALID_BODY']);
    expect((await fetch(`${origin}/api/v1/pets`)).headers.get('x-ratelimit-limit')).toBe('5');
  });
});
