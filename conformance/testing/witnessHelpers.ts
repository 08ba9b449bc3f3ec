// Helpers shared by the witnesses of the two catalogues (regressions.witness.test.ts and
// regressions2.witness.test.ts): a sender that speaks to a deployment as a client would, the
// answers it reads, and the checks both files make. Not a test file: the two import it.
import { expect, it } from 'vitest';
import { inProcessDeployment, type Deployment } from './deployment.ts';
import type { LegalVariant, Regression } from './regressions.ts';

export interface Answer {
  status: number;
  /** Header values, a header sent twice joined with ', ' as fetch would. */
  headers: Record<string, string>;
  raw: Record<string, string | string[]>;
  bytes: Uint8Array;
  text: string;
  json: any;
}
export interface Options {
  /** The API key; null sends no Authorization header. Default demo-pro. */
  key?: string | null;
  headers?: Record<string, string>;
  /** A JSON value (serialised) or a string sent as it is. */
  body?: unknown;
  /** The Content-Type sent with a body; null sends none. Default application/json. */
  contentType?: string | null;
}
export type Send = (method: string, path: string, options?: Options) => Promise<Answer>;

export function sender(deployment: Deployment): Send {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.key !== null) headers.authorization = `Bearer ${options.key ?? 'demo-pro'}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    }
    Object.assign(headers, options.headers);
    // Read whichever the transport gives: the bytes as received when it keeps them, else the body.
    const res = (await deployment.transport.send({ method, url: `${deployment.baseUrl}${path}`, headers, ...(body === undefined ? {} : { body }) }, 10_000)) as unknown as {
      status: number;
      headers: Record<string, string | string[]>;
      body: string | Uint8Array;
      bytes?: Uint8Array;
    };
    const bytes = res.bytes ?? (typeof res.body === 'string' ? new TextEncoder().encode(res.body) : res.body);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const joined = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));
    return { status: res.status, headers: joined, raw: res.headers, bytes, text, json };
  };
}

export const remaining = (answer: Answer) => Number(answer.headers['x-ratelimit-remaining']);
export const strictUtf8 = (bytes: Uint8Array) => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
};
/** Spends `count` requests of a key's window on a cheap list. */
export async function spend(send: Send, count: number, key = 'demo-free') {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await send('GET', '/pets?limit=1', { key }));
  return answers;
}
export const ids = (answer: Answer) => (answer.json as { id: number }[]).map((pet) => pet.id);

export interface Context {
  /** The faulty (or variant) deployment. */
  s: Send;
  /** The plain mock. */
  p: Send;
  d: Deployment;
  pd: Deployment;
}

export const sold = { name: 'Witness', categoryId: 1 };

/** What a regression's or a variant's witness checks, given both deployments. */
export type Witness = (c: Context) => Promise<void>;

export async function withDeployments(entry: Pick<Regression, 'make' | 'mockOptions'>, run: (c: Context) => Promise<void>) {
  const d = await inProcessDeployment(entry.make(), entry.mockOptions);
  const pd = await inProcessDeployment();
  try {
    await run({ s: sender(d), p: sender(pd), d, pd });
  } finally {
    await Promise.all([d.close(), pd.close()]);
  }
}

/**
 * A catalogue holds at least `atLeast` entries, each named once and each with a witness; with
 * `noStrayWitness`, every witness also names an entry.
 */
export function expectWitnessed(entries: readonly { name: string }[], witnesses: Record<string, Witness>, atLeast: number, noStrayWitness: boolean) {
  expect(entries.length).toBeGreaterThanOrEqual(atLeast);
  expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length);
  expect(entries.map((e) => e.name).filter((name) => !witnesses[name])).toEqual([]);
  if (noStrayWitness) expect(Object.keys(witnesses).filter((name) => !entries.some((e) => e.name === name))).toEqual([]);
}

/** A test per regression: its witness, against a deployment of it beside the plain mock. */
export function itWitnessesEach(regressions: readonly Regression[], witnesses: Record<string, Witness>) {
  for (const regression of regressions) {
    it(`${regression.kind}: ${regression.name}`, () => withDeployments(regression, witnesses[regression.name]!));
  }
}

/** A test per legal variant: it keeps the contract (`keepsTheContract`), then its witness holds. */
export function itVariantsEach(variants: readonly LegalVariant[], witnesses: Record<string, Witness>, keepsTheContract: (s: Send) => Promise<void>) {
  for (const variant of variants) {
    it(variant.name, () =>
      withDeployments(variant, async (c) => {
        await keepsTheContract(c.s);
        await witnesses[variant.name]!(c);
      }));
  }
}

/**
 * The helpers that read a created pet's id, built on the catalogue's own reading of it: `idOf`
 * gives the id as its digits (it may lie beyond 2^53), or '' when the answer holds none.
 */
export function readingIds(idOf: (answer: Answer) => string) {
  /** Creates a pet and reads it back by its id. */
  async function roundTrip(send: Send, body: Record<string, unknown>) {
    const created = await send('POST', '/pets', { body });
    expect(created.status).toBe(201);
    const got = await send('GET', `/pets/${idOf(created)}`);
    return { created, got };
  }

  /** Valid requests get the contract's statuses, shapes and headers. */
  async function keepsTheContract(s: Send) {
    const answers: Answer[] = [];
    const keep = async (answer: Promise<Answer>) => {
      const a = await answer;
      answers.push(a);
      return a;
    };
    const list = await keep(s('GET', '/pets?limit=5'));
    expect(list.status).toBe(200);
    expect(list.json).toBeInstanceOf(Array);
    expect(list.json.length).toBeGreaterThan(0);
    expect(list.json.length).toBeLessThanOrEqual(5);
    for (const pet of list.json) expect(pet).toMatchObject({ id: expect.any(Number), name: expect.any(String), categoryId: expect.any(Number) });
    const soldOnes = await keep(s('GET', '/pets?status=sold&limit=3'));
    expect(soldOnes.status).toBe(200);
    expect(soldOnes.json.length).toBeLessThanOrEqual(3);
    expect(soldOnes.json.every((pet: { status: string }) => pet.status === 'sold')).toBe(true);
    const name = 'Witness 🐾 "Ünïcødé" \\ <b>';
    const created = await keep(s('POST', '/pets', { body: { name, categoryId: 1, status: 'pending' } }));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name, categoryId: 1, status: 'pending' });
    const got = await keep(s('GET', `/pets/${idOf(created)}`));
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ name, categoryId: 1, status: 'pending' });
    expect(idOf(got)).toBe(idOf(created));
    const bare = await keep(s('POST', '/pets', { body: { name: 'Bare', categoryId: 2 } }));
    expect(bare.status).toBe(201);
    expect([undefined, 'available', 'pending', 'sold']).toContain(bare.json.status);
    expect((await keep(s('GET', '/pets/999999999'))).status).toBe(404);
    expect((await keep(s('GET', '/pets', { key: null }))).status).toBe(401);
    expect((await keep(s('GET', '/pets', { key: 'not-a-key' }))).status).toBe(401);
    expect((await keep(s('POST', '/pets', { key: null, body: { name: 'NoKey', categoryId: 1 } }))).status).toBe(401);
    const badLimit = await keep(s('GET', '/pets?limit=0'));
    expect(badLimit.status).toBeGreaterThanOrEqual(400);
    expect(badLimit.status).toBeLessThan(500);
    const badBody = await keep(s('POST', '/pets', { body: { categoryId: 1 } }));
    expect(badBody.status).toBeGreaterThanOrEqual(400);
    expect(badBody.status).toBeLessThan(500);
    for (const a of answers) {
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(a.headers[header], header).toMatch(/^\d+$/);
      expect(a.headers['content-type']).toMatch(/^application\/json\s*(;|$)/);
      expect(strictUtf8(a.bytes)).toBeDefined();
      if (a.status >= 400) expect(a.json).toMatchObject({ code: expect.any(String), message: expect.any(String), status: a.status });
    }
  }

  return { idOf, roundTrip, keepsTheContract };
}
