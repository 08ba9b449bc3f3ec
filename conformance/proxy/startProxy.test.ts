import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import { startDeployment, isCreate, isGetPet, isList, json, withJson, type Deployment, type Transform } from '../testing/deployment.ts';
import { startProxy, type RunningProxy } from './startProxy.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function through(transform?: Transform, options: { sharedKey?: boolean } = {}): Promise<{ deployment: Deployment; proxy: RunningProxy; base: string }> {
  const deployment = await startDeployment(transform);
  open.push(deployment);
  const proxy = await startProxy({ target: deployment.baseUrl, spec: await testSpec(), ...options });
  open.push(proxy);
  return { deployment, proxy, base: `${proxy.url}/v1` };
}

interface Raw { status: number; rawHeaders: string[]; body: Buffer }
/** One request over node:http, the answer as bytes and header lines as they came. */
function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const key = { authorization: 'Bearer demo-pro' };
const asJson = { ...key, 'content-type': 'application/json' };
/** Header lines minus those each hop sets for itself (RFC 9110, 7.6.1) and the Date of the moment. */
const endToEnd = (lines: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 2) if (!['connection', 'keep-alive', 'transfer-encoding', 'date'].includes(lines[i]!.toLowerCase())) out.push(`${lines[i]}: ${lines[i + 1]}`);
  return out;
};

/** A client's session: lists, a create read back, a keyless request and an unknown pet. */
async function session(base: string): Promise<void> {
  await raw(`${base}/pets?limit=5`, { headers: key });
  await raw(`${base}/pets?status=sold&limit=3`, { headers: key });
  const created = JSON.parse((await raw(`${base}/pets`, { method: 'POST', headers: asJson, body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) })).body.toString()) as { id: number };
  await raw(`${base}/pets/${created.id}`, { headers: key });
  await raw(`${base}/pets`);
  await raw(`${base}/pets/999999999`, { headers: key });
}

describe('the validating proxy', () => {
  it('returns every answer as the deployment gave it: status, header lines and body bytes', async () => {
    // A deployment whose answer bytes a careless proxy would change: a BOM, a header twice.
    const { deployment, base } = await through(async (req, forward) => {
      const res = await forward(req);
      return isList(req) ? { ...res, headers: { ...res.headers, 'x-trace': ['a', 'b'] }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(String(res.body))]) } : res;
    });
    for (const [path, init] of [['/pets?limit=2', { headers: key }], ['/pets', {}], ['/pets/abc', { headers: key }], ['/pets', { method: 'POST', headers: asJson, body: '{"name":' }]] as const) {
      const direct = await raw(`${deployment.baseUrl}${path}`, init);
      const proxied = await raw(`${base}${path}`, init);
      expect(proxied.status, path).toBe(direct.status);
      expect(proxied.body.equals(direct.body), path).toBe(true);
      // Rate-limit headers count down between the two requests; every other line is the same.
      const stable = (lines: string[]) => endToEnd(lines).filter((l) => !/^x-ratelimit-(remaining|reset)|^retry-after/i.test(l));
      expect(stable(proxied.rawHeaders), path).toEqual(stable(direct.rawHeaders));
    }
  });

  it('passes a deployment that keeps the contract, and counts every exchange it forwarded', async () => {
    const { proxy, base } = await through();
    await session(base);
    const res = await fetch(`${proxy.url}/__proxy/report`);
    const live = (await res.json()) as { verdict: string; exchanges: number; findings: { level: string }[] };
    expect(live.exchanges).toBe(6);
    expect(live.findings.filter((f) => f.level === 'failure')).toEqual([]);
    expect(live.verdict).toBe('passed');
  });

  it('flags a read-back that differs from what was created, with the rule, the contract sentence and the exchange', async () => {
    const { proxy, base } = await through(async (req, forward) => {
      const res = await forward(req);
      // A cache keyed on the path alone serves a stale name for the new pet.
      return isGetPet(req) && res.status === 200 ? withJson(res, { ...(json(res) as object), name: 'Stale' }) : res;
    });
    await session(base);
    const { findings, report } = await proxy.judge();
    expect(report.verdict).toBe('failed');
    const readBack = findings.find((f) => f.check === 'data-integrity' && f.level === 'failure');
    expect(readBack).toMatchObject({ rule: expect.stringMatching(/^data\./), quote: expect.any(String), exchange: { method: 'GET', path: expect.stringMatching(/^\/v1\/pets\/\d+$/), status: 200 } });
  });

  it('flags a server error to a valid request, and a Remaining that does not count down', async () => {
    const { proxy, base } = await through(async (req, forward) => {
      const res = await forward(req);
      if (isCreate(req)) return { ...res, status: 500, body: JSON.stringify({ code: 'INTERNAL', message: 'db down', status: 500 }) };
      // Every answer says 299 left: the limiter is not counting.
      return isList(req) ? { ...res, headers: { ...res.headers, 'x-ratelimit-remaining': '299' } } : res;
    });
    for (let i = 0; i < 3; i++) await raw(`${base}/pets?limit=1`, { headers: key });
    await raw(`${base}/pets`, { method: 'POST', headers: asJson, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    const { findings } = await proxy.judge();
    const failed = new Set(findings.filter((f) => f.level === 'failure').map((f) => f.check));
    expect(failed).toContain('status-codes');
    expect(failed).toContain('rate-limit-accounting');
  });

  it('judges requests in flight together as a burst: a deployment may serve the later one first', async () => {
    let second!: () => void;
    const secondArrived = new Promise<void>((resolve) => (second = resolve));
    let lists = 0;
    const { proxy, base } = await through(async (req, forward) => {
      if (!isList(req)) return forward(req);
      // The first list waits until the second has been served: its Remaining is the lower one.
      if (++lists === 1) {
        await secondArrived;
        return forward(req);
      }
      const res = await forward(req);
      second();
      return res;
    });
    await Promise.all([raw(`${base}/pets?limit=1`, { headers: key }), raw(`${base}/pets?limit=2`, { headers: key })]);
    const { findings, report } = await proxy.judge();
    expect(findings.filter((f) => f.level === 'failure'), JSON.stringify(findings)).toEqual([]);
    expect(report.verdict).toBe('passed');
  });

  it('judges only the API under the target\'s path, and cannot judge when nothing reached it', async () => {
    const { proxy } = await through();
    await raw(`${proxy.url}/favicon.ico`);
    const { report } = await proxy.judge();
    expect(report.verdict).toBe('cannot-run');
    expect(report.reason).toMatch(/nothing could be judged/);
    expect(report.notes.join('\n')).toMatch(/1 request outside \/v1 went through unjudged/);
  });

  it('never writes a key into what it reports', async () => {
    const { proxy, base } = await through();
    await session(base);
    const { report, findings } = await proxy.judge();
    expect(JSON.stringify({ report, findings })).not.toContain('demo-pro');
    expect(report.exchanges[0]!.requestHeaders.authorization).toBe('Bearer $CLIENT_KEY_1');
  });

  it('never writes a key a client sent elsewhere than as a bearer token: a query string, a cookie, an API-key header, another scheme, a JSON body', async () => {
    const { proxy, base } = await through();
    await raw(`${base}/pets?limit=1&api_key=demo-business`);
    await raw(`${base}/pets?limit=1`, { headers: { cookie: 'session=1; api_key=demo-enterprise' } });
    await raw(`${base}/pets?limit=1`, { headers: { 'x-api-key': 'demo-free' } });
    await raw(`${base}/pets?limit=1`, { headers: { authorization: 'Token secret-key-4821' } });
    await raw(`${base}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1, apiKey: 'demo-pro' }) });
    const { report, findings } = await proxy.judge();
    const live = await proxy.live();
    const written = JSON.stringify({ report, findings, live });
    for (const secret of ['demo-business', 'demo-enterprise', 'demo-free', 'secret-key-4821', 'demo-pro']) expect(written, secret).not.toContain(secret);
    expect(report.exchanges).toHaveLength(5);
  });

  it('gives no answer when the deployment gives none, rather than one of its own', async () => {
    const { DropConnection } = await import('../testing/deployment.ts');
    const { proxy, base } = await through(async (req, forward) => (isList(req) ? Promise.reject(new DropConnection()) : forward(req)));
    await expect(raw(`${base}/pets`, { headers: key })).rejects.toThrow(/socket hang up|ECONNRESET/);
    const { report } = await proxy.judge();
    expect(report.requests.failedAtTransport).toBe(1);
  });
});
