// Clients nobody wrote for the contract, through the proxy: it passes a deployment that keeps the
// contract whatever the clients send and whatever open choice the deployment makes, and still
// fails the answers no reading of the contract or of HTTP allows.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import type { MockOptions } from '../../mock/index.ts';
import { asError, refuseWith } from '../testing/catalogueHelpers.ts';
import { isCreate, isList, path, query, startDeployment, type Transform } from '../testing/deployment.ts';
import { legalVariants } from '../testing/regressions.ts';
import { legalVariants2 } from '../testing/regressions2.ts';
import { startProxy, type RunningProxy } from './startProxy.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function through(transform?: Transform, mockOptions: MockOptions = {}, options: { maxKeptBytes?: number } = {}): Promise<{ proxy: RunningProxy; base: string }> {
  const deployment = await startDeployment(transform, mockOptions);
  open.push(deployment);
  const proxy = await startProxy({ target: deployment.baseUrl, spec: await testSpec(), ...options });
  open.push(proxy);
  return { proxy, base: `${proxy.url}/v1` };
}

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; text: string }
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const key = (secret = 'demo-pro') => ({ authorization: `Bearer ${secret}` });
const asJson = (secret = 'demo-pro') => ({ ...key(secret), 'content-type': 'application/json' });
const create = async (base: string, pet: object, secret = 'demo-pro') => JSON.parse((await send(`${base}/pets`, { method: 'POST', headers: asJson(secret), body: JSON.stringify(pet) })).text) as { id: number };
const variant = (name: string) => [...legalVariants, ...legalVariants2].find((v) => v.name === name)!;

/** The proxy's failures, one line each, for a readable diff. */
async function failures(proxy: RunningProxy): Promise<string[]> {
  const { findings } = await proxy.judge();
  return findings.filter((f) => f.level === 'failure').map((f) => `${f.check} ${f.exchange?.method} ${f.exchange?.path} ${f.exchange?.status}: ${f.message}`);
}

describe('the proxy, with scripted clients against the plain mock', () => {
  it('passes lists, creates read back, keyless and wrongly keyed requests', async () => {
    const { proxy, base } = await through();
    await send(`${base}/pets?limit=5`, { headers: key() });
    await send(`${base}/pets?status=sold&limit=3`, { headers: key() });
    const pet = await create(base, { name: 'Biscuit', categoryId: 2 });
    await send(`${base}/pets/${pet.id}`, { headers: key() });
    await send(`${base}/pets`);
    await send(`${base}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Nobody","categoryId":1}' });
    await send(`${base}/pets/999999999`, { headers: key() });
    await send(`${base}/pets`, { headers: { authorization: 'Bearer not-a-key' } });
    await send(`${base}/pets`, { headers: { authorization: 'bearer demo-pro' } });
    expect(await failures(proxy)).toEqual([]);
    expect((await proxy.judge()).report.verdict).toBe('passed');
  });

  it('passes parallel creates, reads and lists, keyed and keyless', async () => {
    const { proxy, base } = await through();
    const pets = await Promise.all(Array.from({ length: 8 }, (_, i) => create(base, { name: `Parallel ${i}`, categoryId: 3, status: 'pending' })));
    await Promise.all([...Array.from({ length: 8 }, () => send(`${base}/pets?limit=100`, { headers: key() })), ...pets.map((pet) => send(`${base}/pets/${pet.id}`, { headers: key() }))]);
    await Promise.all(Array.from({ length: 5 }, () => send(`${base}/pets`)));
    expect(await failures(proxy)).toEqual([]);
  });

  it('passes a client that pages through every status, and one that spends a Free key past its quota', async () => {
    const { proxy, base } = await through();
    for (const status of ['available', 'pending', 'sold']) for (const limit of [1, 10, 100]) await send(`${base}/pets?status=${status}&limit=${limit}`, { headers: key() });
    const answers: number[] = [];
    for (let i = 0; i < 64; i++) answers.push((await send(`${base}/pets?limit=1`, { headers: key('demo-free') })).status);
    await Promise.all(Array.from({ length: 6 }, () => send(`${base}/pets?limit=1`, { headers: key('demo-free') })));
    expect(answers).toContain(429);
    expect(await failures(proxy)).toEqual([]);
  });

  it('passes HEAD, OPTIONS and a browser\'s preflight, and requests spelled oddly', async () => {
    const { proxy, base } = await through();
    await send(`${base}/pets`, { method: 'HEAD', headers: key() });
    await send(`${base}/pets`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    await send(`${base}/pets?limit=5`, { headers: { ...key(), origin: 'https://app.example', 'accept-encoding': 'gzip, br', 'if-none-match': 'W/"from-another-cache"' } });
    await send(`${base}/pets?limit=007&page=2`, { headers: key() });
    await send(`${base}/pets/0001`, { headers: key() });
    await create(base, { name: 'Zed', categoryId: 999999 });
    expect(await failures(proxy)).toEqual([]);
  });
});

describe('the proxy, with scripted clients against legal variants', () => {
  it('passes a 304 to a client that sends back the ETag it was given', async () => {
    const { proxy, base } = await through(variant('ETags and conditional GET').make());
    const list = await send(`${base}/pets?limit=5`, { headers: key() });
    expect((await send(`${base}/pets?limit=5`, { headers: { ...key(), 'if-none-match': String(list.headers.etag) } })).status).toBe(304);
    const pet = await create(base, { name: 'Etag', categoryId: 1 });
    const read = await send(`${base}/pets/${pet.id}`, { headers: key() });
    expect((await send(`${base}/pets/${pet.id}`, { headers: { ...key(), 'if-none-match': String(read.headers.etag) } })).status).toBe(304);
    expect(await failures(proxy)).toEqual([]);
  });

  it('passes a 422 or 413 to a NewPet the deployment may refuse: a category none of its pets has, a long name, a short one padded past 1 KiB', async () => {
    for (const name of ['refuses unknown categories', 'size and character limits']) {
      const { proxy, base } = await through(variant(name).make());
      await send(`${base}/pets?limit=5`, { headers: key() });
      const refused = [
        await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: JSON.stringify({ name: 'Q', categoryId: 5000 }) }),
        await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: JSON.stringify({ name: 'Q'.repeat(20_000), categoryId: 1 }) }),
        // Whitespace is insignificant in JSON (RFC 8259, 2), but the body's size is the deployment's to limit.
        await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: `{${' '.repeat(20_000)}"name":"Q","categoryId":1}` }),
      ];
      expect(refused.map((a) => a.status).some((s) => s === 422 || s === 413), name).toBe(true);
      expect(await failures(proxy), name).toEqual([]);
    }
  });

  it('passes a 403 ban after repeated 429s: the contract does not show the ban\'s answer', async () => {
    const banWith403: Transform = async (req, forward) => {
      const res = await forward(req);
      return typeof res.body === 'string' && res.body.includes('API_KEY_BANNED') ? asError(res, 403, 'KEY_SUSPENDED', 'Banned for sending while throttled.') : res;
    };
    const { proxy, base } = await through(banWith403, { ban: { threshold: 3, seconds: 600 } });
    const answers: number[] = [];
    for (let i = 0; i < 68; i++) answers.push((await send(`${base}/pets?limit=1`, { headers: key('demo-free') })).status);
    expect(answers).toContain(403);
    expect(await failures(proxy)).toEqual([]);
    const { findings } = await proxy.judge();
    expect(findings.find((f) => f.check === 'status-codes')).toMatchObject({ level: 'warning', exchange: { status: 403 } });
  });

  it('passes a 400 to what a deployment may refuse: an unknown query parameter, an id or a limit with leading zeros', async () => {
    const strict: Transform = async (req, forward) => {
      const extra = [...query(req).keys()].some((name) => name !== 'limit' && name !== 'status');
      const zeros = /^\/v1\/pets\/0\d/.test(path(req)) || /^0/.test(query(req).get('limit') ?? '');
      return (isList(req) || path(req).startsWith('/v1/pets/')) && (extra || zeros) ? refuseWith(forward, req, 400, 'BAD_REQUEST', 'Unknown or malformed parameter.') : forward(req);
    };
    const { proxy, base } = await through(strict);
    const statuses = [
      (await send(`${base}/pets?limit=5&page=abc`, { headers: key() })).status,
      (await send(`${base}/pets?limit=007`, { headers: key() })).status,
      (await send(`${base}/pets/0001`, { headers: key() })).status,
    ];
    expect(statuses).toEqual([400, 400, 400]);
    expect(await failures(proxy)).toEqual([]);
  });

  it('passes a 406 to a client that accepts no JSON', async () => {
    const negotiating: Transform = async (req, forward) => (/json|\*\/\*|application\/\*/.test(req.headers.accept ?? '*/*') ? forward(req) : refuseWith(forward, req, 406, 'NOT_ACCEPTABLE', 'Only JSON is served.'));
    const { proxy, base } = await through(negotiating);
    expect((await send(`${base}/pets?limit=5`, { headers: { ...key(), accept: 'text/html' } })).status).toBe(406);
    expect(await failures(proxy)).toEqual([]);
  });
});

describe('the proxy, still strict where nothing allows the answer', () => {
  it('fails a 304 whose ETag matches none the client sent (http-semantics), a 406 to a client that accepts JSON, a 422 to a NewPet of a known category', async () => {
    const broken: Transform = async (req, forward) => {
      const res = await forward(req);
      if (req.headers['if-none-match'] !== undefined && res.status === 200) return { status: 304, headers: { ...res.headers, etag: 'W/""' }, body: '' };
      if (req.headers.accept === 'application/json;q=0.9, */*;q=0.1') return asError(res, 406, 'NOT_ACCEPTABLE', 'No.');
      return isCreate(req) && res.status === 201 ? asError(res, 422, 'UNPROCESSABLE', 'No.') : res;
    };
    const { proxy, base } = await through(broken);
    const [pet] = JSON.parse((await send(`${base}/pets?limit=1`, { headers: key() })).text) as { categoryId: number }[];
    await send(`${base}/pets?limit=2`, { headers: { ...key(), 'if-none-match': '"matches-nothing"' } });
    await send(`${base}/pets?limit=3`, { headers: { ...key(), accept: 'application/json;q=0.9, */*;q=0.1' } });
    await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: JSON.stringify({ name: 'Known', categoryId: pet!.categoryId }) });
    const all = await failures(proxy);
    // A 304 is HTTP's answer to a conditional GET: http-semantics judges it, the statuses the contract lists do not.
    expect(all.filter((f) => f.startsWith('http-semantics'))).toEqual([expect.stringMatching(/GET \/v1\/pets\?limit=2 304: .*its own ETag W\/"" matches none of the tags sent/)]);
    expect(all.filter((f) => f.startsWith('status-codes'))).toEqual([expect.stringMatching(/GET \/v1\/pets\?limit=3 406/), expect.stringMatching(/POST \/v1\/pets 422/)]);
  });

  it('fails a 400 to a NewPet nothing is wrong with, and not to one a deployment may refuse', async () => {
    const statusRequired: Transform = async (req, forward) => {
      if (!isCreate(req)) return forward(req);
      const sent = JSON.parse(req.body) as { status?: unknown };
      return sent.status === undefined ? refuseWith(forward, req, 400, 'STATUS_REQUIRED', 'status is required.') : forward(req);
    };
    const { proxy, base } = await through(statusRequired);
    const [pet] = JSON.parse((await send(`${base}/pets?limit=1`, { headers: key() })).text) as { categoryId: number }[];
    // A category none of its pets has seen, a name with a control character: open to refusal.
    await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: JSON.stringify({ name: 'Unknown', categoryId: 123456789 }) });
    await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: JSON.stringify({ name: 'tab\there', categoryId: pet!.categoryId }) });
    expect(await failures(proxy)).toEqual([]);
    await send(`${base}/pets`, { method: 'POST', headers: asJson(), body: JSON.stringify({ name: 'Plain', categoryId: pet!.categoryId }) });
    expect(await failures(proxy)).toEqual([expect.stringMatching(/^valid-creates POST \/v1\/pets 400: /)]);
  });

  it('does not call a Remaining wrong for requests it forwarded without judging them', async () => {
    // Room for the small answers only: the list of 100 pets is forwarded, counted and not judged.
    const { proxy, base } = await through(undefined, {}, { maxKeptBytes: 3_000 });
    for (const limit of [1, 100, 1, 1]) await send(`${base}/pets?limit=${limit}`, { headers: key() });
    const { report } = await proxy.judge();
    expect(report.exchanges.length).toBe(3);
    expect(await failures(proxy)).toEqual([]);
    expect(report.notes.join('\n')).toMatch(/as with --shared-key/);
  });
});

describe('known gaps outside conformance/proxy (each says why): these fail while the gap is there', () => {
  // "Transitions: not shown", and the store-orders endpoint is "not shown" either: placing an order
  // may well mark the pet sold. A write with the key the contract does not define, served 2xx,
  // makes the model forget what it knew of the statuses (conformance/model/judgeData.ts).
  it('passes a pet whose status an order placed through the proxy changed', async () => {
    const orders: Transform = async (req, forward) => {
      if (req.method !== 'POST' || path(req) !== '/v1/store/orders') return forward(req);
      const served = await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: { authorization: req.headers.authorization ?? '' }, body: '' });
      if (served.status !== 200) return served;
      const { petId } = JSON.parse(req.body) as { petId: number };
      const pets = JSON.parse(String((await forward({ method: 'GET', url: '/__mock/pets', headers: {}, body: '' })).body)) as { id: number }[];
      await forward({ method: 'PUT', url: '/__mock/pets', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pets.map((pet) => (pet.id === petId ? { ...pet, status: 'sold' } : pet))) });
      return { status: 201, headers: { ...served.headers, 'content-type': 'application/json' }, body: JSON.stringify({ id: 1, petId, status: 'placed' }) };
    };
    const { proxy, base } = await through(orders);
    const pet = await create(base, { name: 'Adoptee', categoryId: 1, status: 'available' });
    expect((await send(`${base}/store/orders`, { method: 'POST', headers: asJson(), body: JSON.stringify({ petId: pet.id }) })).status).toBe(201);
    expect(JSON.parse((await send(`${base}/pets/${pet.id}`, { headers: key() })).text)).toMatchObject({ status: 'sold' });
    expect(await failures(proxy)).toEqual([]);
  });
});
