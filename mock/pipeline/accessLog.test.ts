import { describe, expect, it } from 'vitest';
import { AccessLog } from './accessLog.ts';
import type { AnsweredRequest } from '../core/coreTypes.ts';

const answered = (over: Partial<AnsweredRequest> = {}): AnsweredRequest => ({
  method: 'GET',
  url: '/v1/pets?limit=5',
  status: 200,
  ms: 0.84,
  answeredAt: 0.6,
  key: 'demo…(15)',
  client: '10.0.0.7',
  runId: undefined,
  fault: undefined,
  corsRefused: false,
  ...over,
});

const line = /^\d{2}:\d{2}:\d{2}\.\d{3} /;

describe('the access log', () => {
  it('writes the gathered requests as one line each, in order, in one write', () => {
    const writes: string[] = [];
    const log = new AccessLog((text) => writes.push(text));
    log.record(answered());
    log.record(answered({ method: 'POST', url: '/v1/pets', status: 201, ms: 12.25, runId: '3f2c', fault: 'fault-2' }));
    expect(writes).toEqual([]);
    log.flush();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => l.replace(line, ''))).toEqual(['GET /v1/pets?limit=5 200 0.8ms demo…(15) 10.0.0.7', 'POST /v1/pets 201 12.3ms demo…(15) 10.0.0.7 run=3f2c fault=fault-2']);
    expect(lines.every((l) => line.test(l))).toBe(true);
  });

  it('gives each line the wall-clock time its request was answered at, placed against the wall clock as the batch is written', () => {
    const writes: string[] = [];
    // The batch is written at 12:30:01.500 wall-clock, 1,000 ms on the monotonic clock.
    const log = new AccessLog((text) => writes.push(text), { clocks: { wall: () => Date.UTC(2026, 5, 1, 12, 30, 1, 500), monotonic: () => 1000 } });
    log.record(answered({ answeredAt: 734.6 }));
    log.record(answered({ answeredAt: 999.9 }));
    log.flush();
    expect(writes[0]!.split('\n').slice(0, 2).map((l) => l.split(' ')[0])).toEqual(['12:30:01.234', '12:30:01.499']);
  });

  it('marks the replica, a refused preflight and a client without an address, and cuts a long URL', () => {
    const writes: string[] = [];
    const log = new AccessLog((text) => writes.push(text), { replica: 'web-1:42' });
    log.record(answered({ method: 'OPTIONS', status: 204, corsRefused: true, client: '', url: `/v1/pets?q=${'x'.repeat(600)}` }));
    log.flush();
    const text = writes[0]!.replace(line, '');
    expect(text).toMatch(/^OPTIONS \/v1\/pets\?q=x+… 204 0\.8ms demo…\(15\) - replica=web-1:42 cors=refused\n$/);
    expect(text.indexOf('…')).toBe('OPTIONS '.length + 512);
  });

  it('percent-encodes a run id that is not visible ASCII, so a line stays one line', () => {
    const writes: string[] = [];
    const log = new AccessLog((text) => writes.push(text));
    log.record(answered({ runId: 'a b\nc' }));
    log.flush();
    expect(writes[0]).toContain(' run=a%20b%0Ac\n');
    expect(writes[0]!.split('\n')).toHaveLength(2);
  });

  it('writes a flood in batches of 1,024 requests without waiting for its timer', () => {
    const writes: string[] = [];
    const log = new AccessLog((text) => writes.push(text));
    for (let i = 0; i < 2_500; i++) log.record(answered({ url: `/v1/pets/${i}` }));
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([1_024, 1_024]);
    log.flush();
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([1_024, 1_024, 452]);
    expect(writes.join('').split('\n').slice(0, -1).map((l) => l.split(' ')[2])).toEqual(Array.from({ length: 2_500 }, (_, i) => `/v1/pets/${i}`));
  });

  it('writes nothing when nothing was gathered', () => {
    const writes: string[] = [];
    new AccessLog((text) => writes.push(text)).flush();
    expect(writes).toEqual([]);
  });
});
