import { describe, expect, it } from 'vitest';
import { RequestLog, type LoggedRequest } from './requestLog.ts';

const entry = (n: number, extra: Partial<LoggedRequest> = {}): LoggedRequest => ({
  time: new Date(n).toISOString(), method: 'GET', path: `/v1/pets/${n}`, query: {}, status: 200, key: null, ms: 1, ...extra,
});

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
    expect(log.dropped).toBe(4);
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

  it('empties on clear', () => {
    const log = new RequestLog(2);
    for (let n = 1; n <= 3; n++) log.add(entry(n));
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.dropped).toBe(0);
  });
});
