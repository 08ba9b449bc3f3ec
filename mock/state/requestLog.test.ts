import { describe, expect, it } from 'vitest';
import { RequestLog, type RecordedRequest } from './requestLog.ts';

const entry = (n: number, extra: Partial<RecordedRequest & { path: string }> = {}): RecordedRequest => {
  const { path = `/v1/pets/${n}`, ...rest } = extra;
  return { at: n, method: 'GET', url: path, status: 200, key: null, ms: 1, ...rest };
};

describe('RequestLog', () => {
  it('lists entries newest last', () => {
    const log = new RequestLog(10);
    [1, 2, 3].forEach((n) => log.add(entry(n)));
    expect(log.list().map((e) => e.path)).toEqual(['/v1/pets/1', '/v1/pets/2', '/v1/pets/3']);
  });

  it('keeps only the newest entries once full, and counts the dropped ones', () => {
    const log = new RequestLog(3);
    for (let n = 1; n <= 7; n++) log.add(entry(n));
    expect(log.list().map((e) => e.path)).toEqual(['/v1/pets/5', '/v1/pets/6', '/v1/pets/7']);
    expect(log.dropped()).toBe(4);
  });

  it('filters by method, exact path, path prefix, status and status class', () => {
    const log = new RequestLog(10);
    log.add(entry(1, { method: 'POST', path: '/v1/pets', status: 201 }));
    log.add(entry(2, { status: 404 }));
    log.add(entry(3, { path: '/v1/pets', status: 401 }));
    expect(log.list({ method: 'post' }).map((e) => e.status)).toEqual([201]);
    expect(log.list({ path: '/v1/pets' }).map((e) => e.status)).toEqual([201, 401]);
    expect(log.list({ path: '/v1/pets/*' }).map((e) => e.status)).toEqual([404]);
    expect(log.list({ status: '4xx' }).map((e) => e.status)).toEqual([404, 401]);
    expect(log.list({ status: '201' }).map((e) => e.method)).toEqual(['POST']);
  });

  it('shows each request with its time, path, parsed query, client address and run id', () => {
    const log = new RequestLog(2);
    log.add({ at: Date.UTC(2026, 0, 1), method: 'GET', url: '/v1/pets?limit=2&status=sold&x=1&x=2', status: 200, key: 'demo…(9)', ms: 1.5, client: '10.0.0.7', runId: 'run-1' });
    expect(log.list()).toEqual([{ time: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/v1/pets', query: { limit: '2', status: 'sold', x: ['1', '2'] }, status: 200, key: 'demo…(9)', ms: 1.5, client: '10.0.0.7', runId: 'run-1' }]);
  });

  it('shows null for a run id not sent, and for a client address an older replica did not record', () => {
    const log = new RequestLog(2);
    log.add(entry(1));
    expect(log.list()[0]).toMatchObject({ client: null, runId: null });
    expect(log.list()[0]).not.toHaveProperty('replica');
  });

  it('filters by run id, combined with the other filters', () => {
    const log = new RequestLog(10);
    log.add(entry(1, { runId: 'run-a' }));
    log.add(entry(2, { runId: 'run-b', status: 404 }));
    log.add(entry(3, { runId: 'run-a', status: 404 }));
    log.add(entry(4));
    expect(log.list({ runId: 'run-a' }).map((e) => e.path)).toEqual(['/v1/pets/1', '/v1/pets/3']);
    expect(log.list({ runId: 'run-a', status: '4xx' }).map((e) => e.path)).toEqual(['/v1/pets/3']);
    expect(log.list({ runId: 'run-c' })).toEqual([]);
  });

  it('empties on clear', () => {
    const log = new RequestLog(2);
    for (let n = 1; n <= 3; n++) log.add(entry(n));
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.dropped()).toBe(0);
  });
});

describe('RequestLog with odd paths', () => {
  it('shows a path that URL would reject', () => {
    const log = new RequestLog(2);
    log.add({ at: 0, method: 'GET', url: '//a:b?x=1', status: 404, key: null, ms: 1 });
    expect(log.list()[0]).toMatchObject({ path: '//a:b', query: { x: '1' } });
  });
});

describe('RequestLog keeping entries alike', () => {
  const graded = (n: number, extra: Partial<RecordedRequest['grade']> = {}): RecordedRequest => ({
    ...entry(n, { path: '/v1/pets?limit=20', key: 'demo…(9)', client: '127.0.0.1' }),
    ms: n / 10,
    grade: { client: 'key:abc', label: 'demo…(9)', auth: 'bearer', operationId: 'listPets', arrivedAt: 1000 + n, remaining: 100 - n, reset: 60, query: { limit: 'in-range' }, given: ['categoryId', 'id', 'name', 'status'], ...extra },
  });

  it('gives back every entry with its own times and window, though alike entries are kept together', () => {
    const log = new RequestLog(10);
    const sent = [1, 2, 3].map((n) => graded(n));
    sent.forEach((e) => log.add(e));
    expect(log.recorded()).toEqual(sent);
  });

  it('keeps what differs between two entries, down to a query kind and a field name', () => {
    const log = new RequestLog(10);
    const sent = [graded(1), graded(2, { query: { limit: 'out-of-range' } }), graded(3, { given: ['id'] }), graded(4, { retryAfter: 5, code: 'RATE_LIMITED' }), graded(5), graded(6, { given: ['categoryId', 'id', 'name', 'tags'] }), graded(7)];
    sent.forEach((e) => log.add(e));
    expect(log.recorded()).toEqual(sent);
  });

  it('gives fresh entries: changing one read changes nothing kept', () => {
    const log = new RequestLog(10);
    log.add(graded(1));
    log.add(graded(2));
    const [first] = log.recorded();
    first!.url = '/changed';
    first!.grade!.label = 'changed';
    expect(log.recorded().map((e) => [e.url, e.grade!.label])).toEqual([['/v1/pets?limit=20', 'demo…(9)'], ['/v1/pets?limit=20', 'demo…(9)']]);
  });

  it('keeps an entry without client facts without any, beside graded ones', () => {
    const log = new RequestLog(3);
    const sent = [graded(1), entry(2), graded(3), graded(4)];
    sent.forEach((e) => log.add(e));
    expect(log.recorded()).toEqual(sent.slice(1));
    expect(log.recorded()[0]).not.toHaveProperty('grade');
  });
});

describe('RequestLog making entries later', () => {
  it('makes the entries waiting as soon as the log is read, in the order their requests were answered', () => {
    const log = new RequestLog(10);
    const made: number[] = [];
    for (const n of [1, 2, 3]) log.addLater(() => (made.push(n), entry(n)));
    expect(made).toEqual([]);
    expect(log.list().map((e) => e.path)).toEqual(['/v1/pets/1', '/v1/pets/2', '/v1/pets/3']);
    expect(made).toEqual([1, 2, 3]);
    log.addLater(() => entry(4));
    expect(log.dropped()).toBe(0);
    expect(log.recorded().map((e) => e.at)).toEqual([1, 2, 3, 4]);
  });

  it('makes a flood of entries in batches of 256, unread', () => {
    const log = new RequestLog(1000);
    let made = 0;
    for (let n = 1; n <= 600; n++) log.addLater(() => (made++, entry(n)));
    expect(made).toBe(512);
    log.settle();
    expect(made).toBe(600);
  });

  it('makes what waits before it clears, so every answered request still reaches the access log', () => {
    const log = new RequestLog(10);
    const made: number[] = [];
    log.addLater(() => (made.push(1), entry(1)));
    log.clear();
    expect(made).toEqual([1]);
    expect(log.list()).toEqual([]);
  });

  it('still makes every entry when it keeps none, and skips one that could not be made', () => {
    const none = new RequestLog(0);
    let made = 0;
    none.addLater(() => (made++, entry(1)));
    none.settle();
    expect(made).toBe(1);
    const log = new RequestLog(5);
    log.addLater(() => undefined);
    log.addLater(() => entry(2));
    expect(log.recorded().map((e) => e.at)).toEqual([2]);
  });
});
