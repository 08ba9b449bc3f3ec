import { describe, expect, it } from 'vitest';
import type { ApiRequest } from './exchange.ts';
import { PacedClient, QuotaExhaustedError, type ClientEvent } from './pacedClient.ts';
import { keptBodyBudget, keptPart } from './retention.ts';
import { summarizeExchange } from '../runReport.ts';
import { responseOf, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport.ts';

const list: ApiRequest = { method: 'GET', path: '/pets', auth: 'key', operationId: 'listPets', intent: 'valid' };

/** A fake deployment on a fake clock: answers from a script and records what it was sent. */
function setup(answer: (sent: TransportRequest[], now: number) => TransportResponse, options: { maxWaitMs?: number; deadline?: number } = {}) {
  let now = Date.UTC(2026, 0, 1, 12, 0, 30);
  const sent: TransportRequest[] = [];
  const waits: number[] = [];
  const events: ClientEvent[] = [];
  const transport: Transport = {
    async send(request) {
      sent.push(request);
      return answer(sent, now);
    },
  };
  const client = new PacedClient({
    baseUrl: 'http://api.test/v1/',
    apiKey: 'secret-key',
    transport,
    timeoutMs: 1000,
    userAgent: 'pets-conformance/test',
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { client, sent, waits, events, advance: (ms: number) => (now += ms) };
}

const ok = (remaining: number, reset: number): TransportResponse =>
  responseOf(200, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset), 'content-type': 'application/json' }, '[]');
const tooMany = (retryAfter?: string): TransportResponse =>
  responseOf(429, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) }, '{"code":"RATE_LIMITED","message":"slow down","status":429}');
const resetAt = Date.UTC(2026, 0, 1, 12, 1, 0) / 1000;

describe('PacedClient', () => {
  it('paces parallel requests as one: with two left, the third of a burst waits for the window', async () => {
    let left = 3;
    const { client, sent, waits } = setup(() => ok(Math.max(0, --left), resetAt));
    await client.send('probe', list);
    expect(left).toBe(2);
    const sentBefore = sent.length;
    await Promise.all([client.send('burst', list), client.send('burst', list), client.send('burst', list)]);
    // Two go at once; the third, which would spend past what was left, waits for the reset.
    expect(waits).toEqual([resetAt * 1000 + 500 - Date.UTC(2026, 0, 1, 12, 0, 30)]);
    expect(sent.length - sentBefore).toBe(3);
  });

  it('sends the key as a bearer token, a User-Agent and a run id, and records the key redacted', async () => {
    const { client, sent } = setup(() => ok(10, resetAt));
    const exchange = await client.send('auth', list);
    expect(sent[0]).toMatchObject({ url: 'http://api.test/v1/pets', headers: { authorization: 'Bearer secret-key', 'user-agent': 'pets-conformance/test', 'x-conformance-run-id': client.runId } });
    expect(exchange.request.headers.authorization).toBe('Bearer $PETS_API_KEY');
    expect(JSON.stringify(exchange)).not.toContain('secret-key');
  });

  it('waits for the window to reset instead of spending the last request', async () => {
    const { client, sent, waits } = setup((s) => ok(s.length === 1 ? 0 : 59, resetAt));
    await client.send('a', list);
    await client.send('a', list);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([30_500]);
  });

  it('spends the last request when a 429 is what it is after', async () => {
    const { client, waits } = setup(() => ok(0, resetAt));
    await client.send('a', list);
    await client.send('probe', list, { expect429: true });
    expect(waits).toEqual([]);
  });

  it('waits out an unexpected 429 per Retry-After, then sends again, and reports it', async () => {
    const { client, sent, waits, events } = setup((s) => (s.length === 1 ? tooMany('7') : ok(50, resetAt)));
    const exchange = await client.send('a', list);
    expect(exchange.response.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([7000]);
    expect(events).toContainEqual(expect.objectContaining({ kind: 'unexpected-429', waitMs: 7000 }));
  });

  it('reads Retry-After as an HTTP-date too', async () => {
    const { client, waits } = setup((s, now) => (s.length === 1 ? tooMany(new Date(now + 12_000).toUTCString()) : ok(50, resetAt)));
    await client.send('a', list);
    expect(waits).toEqual([12_000]);
  });

  it('reads a Retry-After HTTP-date against the answer\'s own Date, however far that is from the suite\'s clock', async () => {
    const theirs = Date.UTC(2030, 11, 5, 13, 0, 0);
    const dated = (retryAfter: string): TransportResponse => ({ ...tooMany(retryAfter), headers: { ...tooMany(retryAfter).headers, date: new Date(theirs).toUTCString() } });
    const { client, waits } = setup((s) => (s.length === 1 ? dated(new Date(theirs + 9_000).toUTCString()) : ok(50, resetAt)));
    await client.send('a', list);
    expect(waits).toEqual([9_000]);
  });

  it('backs off exponentially without a Retry-After, and leaves the key alone after its last try', async () => {
    const { client, sent, waits } = setup(() => tooMany());
    await expect(client.send('a', list)).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(client.exchanges.map((e) => e.response.status)).toEqual([429, 429, 429]);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
    await expect(client.send('b', list)).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(sent).toHaveLength(3);
  });

  it('gives up at once when Retry-After is longer than it may wait', async () => {
    const { client, sent } = setup(() => tooMany('3600'), { maxWaitMs: 60_000 });
    await expect(client.send('a', list)).rejects.toThrow(/429/);
    expect(sent).toHaveLength(1);
    await expect(client.send('b', list)).rejects.toThrow(/so as not to get it banned/);
  });

  it('keeps a key the deployment echoes back out of what it records', async () => {
    const { client } = setup(() => responseOf(401, { 'x-echo': ['Token secret-key', 'again secret-key'] }, '{"message":"bad key secret-key"}'));
    const exchange = await client.send('auth', { ...list, auth: { authorization: 'Token secret-key' }, intent: 'unauthenticated' });
    expect(JSON.stringify(exchange)).not.toContain('secret-key');
    expect(exchange.response.json).toEqual({ message: 'bad key $PETS_API_KEY' });
    expect(exchange.response.rawHeaders).toEqual([['x-echo', 'Token $PETS_API_KEY'], ['x-echo', 'again $PETS_API_KEY']]);
    expect(exchange.response.headers['x-echo']).toBe('Token $PETS_API_KEY, again $PETS_API_KEY');
  });

  it('hands the checks the bytes as received and the reports never the bytes', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d, 0xe9]);
    const { client } = setup(() => ({ ...responseOf(200, { 'content-type': 'application/json' }, bytes), truncated: true }));
    const exchange = await client.send('a', list);
    expect(exchange.response).toMatchObject({ bytes, body: '\ufeff[]\ufffd', truncated: true, rawHeaders: [['content-type', 'application/json']] });
    const summary = summarizeExchange(exchange);
    expect(summary.responseBody.text).toBe('\ufeff[]\ufffd');
    expect(Object.keys(summary)).not.toContain('bytes');
    expect(JSON.stringify(summary)).not.toMatch(/"(bytes|rawHeaders)"|"0":239/);
  });

  it('past the run\'s budget for kept bodies, keeps an answer\'s start, marked kept in part (not too large) and never parsed', async () => {
    // Each answer a valid list of 1 MiB: the deployment's are whole; only the run's own budget cuts.
    const page = `[${Array.from({ length: 1024 }, (_, i) => JSON.stringify({ id: i, name: 'n'.repeat(1000), categoryId: 1 })).join(',')}]`;
    const { client } = setup(() => responseOf(200, { 'content-type': 'application/json' }, page));
    const within = Math.floor(keptBodyBudget / Buffer.byteLength(page));
    for (let i = 0; i < within; i++) expect((await client.send('a', list)).response.keptInPart).toBeUndefined();
    const past = await client.send('a', list);
    expect(past.response.keptInPart).toMatch(/the run had already kept 16 MiB of answers' bodies, its own budget, so only this body's first 8 KiB .* were kept, and it is not judged/);
    expect(past.response.truncated).toBeUndefined();
    expect(past.response.body).toHaveLength(keptPart);
    expect(past.response.json).toBeUndefined();
    expect(past.response.value).toBeUndefined();
  });

  it('keeps the anonymous quota apart from the key\'s', async () => {
    const { client, waits } = setup((s) => ok(s.length === 1 ? 0 : 5, resetAt));
    await client.send('a', { ...list, auth: 'none', intent: 'unauthenticated' });
    await client.send('a', list);
    expect(waits).toEqual([]);
    expect(client.quota('anonymous').remaining).toBe(0);
    expect(client.quota('key').remaining).toBe(5);
  });

  it('sends a GET again after a reset, twice at most with backoff, and notes each retry', async () => {
    const { client, sent, waits, events } = setup((s) => {
      if (s.length <= 2) throw new TransportError('GET http://api.test/v1/pets failed: UND_ERR_SOCKET', 'http://api.test/v1/pets');
      return ok(50, resetAt);
    });
    const exchange = await client.send('a', list);
    expect(exchange.response.status).toBe(200);
    expect(exchange.retries).toBe(2);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([250, 500]);
    expect(events.filter((e) => e.kind === 'transport-retry')).toHaveLength(2);
    expect(client.transportFailures).toBe(0);
    // Each lost try is recorded where it fell, before the answer, for the HAR's status-0 entries.
    expect(client.unanswered.map((u) => [u.attempt, u.afterSeq, u.error])).toEqual([[1, 0, expect.stringMatching(/UND_ERR_SOCKET/)], [2, 0, expect.stringMatching(/UND_ERR_SOCKET/)]]);
  });

  it('gives a GET up after three failures, as a transport error', async () => {
    const { client, sent } = setup(() => {
      throw new TransportError('GET http://api.test/v1/pets failed: ECONNREFUSED', 'http://api.test/v1/pets');
    });
    await expect(client.send('a', list)).rejects.toThrow(/ECONNREFUSED \(3 tries\)/);
    expect(sent).toHaveLength(3);
    expect(client.transportFailures).toBe(1);
  });

  it('judges at once an answer whose framing broke, with its bytes: no retry mends malformed bytes', async () => {
    const { client, sent } = setup(() => {
      throw new TransportError('GET http://api.test/v1/pets failed: its answer breaks HTTP/1.1 framing', 'http://api.test/v1/pets', responseOf(200, { 'content-type': 'application/json' }, '[{"id":1', true), { malformed: true });
    });
    const exchange = await client.send('a', list);
    expect(sent).toHaveLength(1);
    expect(exchange.response).toMatchObject({ status: 200, body: '[{"id":1', incomplete: expect.stringContaining('breaks HTTP/1.1 framing') });
    expect(client.failuresInARow).toBe(0);
  });

  it('tries a GET once when an answer before was cut short on every try: a deployment that cuts answers short is no blip, and each try may wait the timeout', async () => {
    const cut = () => new TransportError('GET http://api.test/v1/pets failed: aborted (ECONNRESET) after 8 bytes of the body', 'http://api.test/v1/pets', responseOf(200, { 'content-type': 'application/json' }, '[{"id":1', true));
    const { client, sent } = setup((s) => {
      if (s[s.length - 1]!.url.endsWith('/pets/1')) return ok(50, resetAt);
      throw cut();
    });
    const first = await client.send('a', list);
    expect(sent).toHaveLength(3);
    expect(first.response).toMatchObject({ status: 200, body: '[{"id":1', incomplete: expect.stringContaining('after 8 bytes of the body') });
    await client.send('a', { ...list, path: '/pets/1', operationId: 'getPet' });
    const second = await client.send('a', list);
    expect(sent).toHaveLength(5);
    expect(second.response.incomplete).toContain('after 8 bytes of the body');
  });

  it('still tries a GET again after a reset with nothing of the answer, once answers were cut short', async () => {
    let mode: 'cut' | 'refused' = 'cut';
    const { client, sent } = setup(() => {
      throw mode === 'cut'
        ? new TransportError('GET http://api.test/v1/pets failed: aborted after 8 bytes of the body', 'http://api.test/v1/pets', responseOf(200, { 'content-type': 'application/json' }, '[{"id":1', true))
        : new TransportError('GET http://api.test/v1/pets failed: ECONNRESET', 'http://api.test/v1/pets');
    });
    await client.send('a', list);
    mode = 'refused';
    await expect(client.send('a', list)).rejects.toThrow(/\(3 tries\)/);
    expect(sent).toHaveLength(6);
  });

  it('never sends a POST again after a transport error: it may have been processed', async () => {
    const { client, sent } = setup(() => {
      throw new TransportError('POST http://api.test/v1/pets failed: no answer within 1000 ms', 'http://api.test/v1/pets');
    });
    const create: ApiRequest = { method: 'POST', path: '/pets', auth: 'key', body: '{}', operationId: 'createPet', intent: 'valid' };
    await expect(client.send('a', create)).rejects.toThrow(/never sent again blindly/);
    expect(sent).toHaveLength(1);
  });

  it('tries a GET once when its operation already timed out on every try, and says to send no more after two such requests', async () => {
    const silence = () => new TransportError('GET http://api.test/v1/pets failed: no answer within 1000 ms', 'http://api.test/v1/pets', undefined, { timedOut: true });
    const { client, sent } = setup((s) => {
      if (s[s.length - 1]!.url.endsWith('/pets/1')) return ok(50, resetAt);
      throw silence();
    });
    await expect(client.send('a', list)).rejects.toThrow(/\(3 tries\)/);
    expect(client.silence('listPets')).toBeUndefined();
    await client.send('a', { ...list, path: '/pets/1', operationId: 'getPet' });
    await expect(client.send('a', list)).rejects.toThrow(/\(1 try\)/);
    expect(sent.filter((r) => r.url.endsWith('/pets'))).toHaveLength(4);
    expect(client.silence('listPets')).toBe('not sent: 2 requests to listPets in a row got no answer within 1000 ms');
    expect(client.silence('getPet')).toBeUndefined();
    expect(client.unanswered.map((u) => [u.attempt, u.timedOut, u.path])).toEqual([[1, true, '/pets'], [2, true, '/pets'], [3, true, '/pets'], [1, true, '/pets']]);
  });

  it('forgets an operation\'s silence once it answers, and never counts a refused or reset try as one', async () => {
    let mode: 'silent' | 'refused' | 'ok' = 'silent';
    const { client } = setup(() => {
      if (mode === 'ok') return ok(50, resetAt);
      throw new TransportError('GET http://api.test/v1/pets failed: x', 'http://api.test/v1/pets', undefined, { timedOut: mode === 'silent' });
    });
    await expect(client.send('a', list)).rejects.toThrow();
    mode = 'ok';
    await client.send('a', list);
    mode = 'silent';
    await expect(client.send('a', list)).rejects.toThrow(/\(3 tries\)/);
    mode = 'refused';
    await expect(client.send('a', list)).rejects.toThrow(/\(3 tries\)/);
    expect(client.silence('listPets')).toBeUndefined();
  });

  it('counts a key sent in another form against the key\'s quota when told it spends it', async () => {
    const { client } = setup(() => ok(7, resetAt));
    await client.send('a', { ...list, auth: { authorization: 'bearer secret-key', spends: 'key' } });
    expect(client.quota('key').remaining).toBe(7);
    expect(client.quota('anonymous').remaining).toBeUndefined();
  });

  it('keeps the key out of a URL that carries it', async () => {
    const { client } = setup(() => ok(7, resetAt));
    const exchange = await client.send('a', { ...list, path: '/pets?access_token=secret-key', auth: 'none', intent: 'unauthenticated' });
    expect(JSON.stringify(exchange)).not.toContain('secret-key');
  });
});

describe('waiting when a check asks', () => {
  it('waits on its clock and says so, and declines without waiting, saying why, past --max-wait or the time budget', async () => {
    const { client, waits, events } = setup(() => ok(7, resetAt), { maxWaitMs: 10_000, deadline: Date.UTC(2026, 0, 1, 12, 0, 40) });
    expect(await client.waitFor(4_000, 'to spend the next window')).toBe(true);
    expect(await client.waitFor(12_000, 'to spend the next window')).toBe(false);
    expect(await client.waitFor(9_000, 'to spend the next window')).toBe(false);
    expect(waits).toEqual([4_000]);
    expect(events.map((e) => (e.kind === 'wait' ? [e.ms, e.declined] : e.kind))).toEqual([
      [4_000, undefined],
      [12_000, 'longer than --max-wait (10 s)'],
      [9_000, 'past the run\'s time budget (--max-duration)'],
    ]);
  });
});
