import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { capturedBodyLimit, summarizeExchange, type RunReport } from '../runReport.ts';
import { harReport } from './harReport.ts';
import { failingRun, refusedKeyRun, unreachableRun } from './testing/handBuiltRuns.ts';
import { renderReports } from './writeReports.ts';

const written = (report: RunReport): Har => JSON.parse(renderReports(report).har);

describe('the HAR file', () => {
  const failing = failingRun();

  it('is HAR 1.2 with one entry per request of the run, in order, with timing', () => {
    const { log } = written(failing);
    expect(log.version).toBe('1.2');
    expect(log.creator).toEqual({ name: 'pets-conformance', version: failing.tool.version });
    expect(log.entries).toHaveLength(failing.requests.total + failing.unanswered!.length);
    expect(log.entries.filter((e) => e.response.status !== 0).map((e) => `${e.request.method} ${e.request.url}`)).toEqual(failing.exchanges.map((e) => `${e.method} ${e.url}`));
    for (const entry of log.entries) {
      expect(new Date(entry.startedDateTime).toISOString()).toBe(entry.startedDateTime);
      expect(entry.time).toBeGreaterThanOrEqual(0);
      expect(entry.timings.wait).toBe(entry.time);
      expect(entry.pageref).toBe(log.pages![0]!.id);
    }
  });

  it('holds request and response headers and bodies, and the query string', () => {
    const { log } = written(failing);
    const create = log.entries.find((e) => e.request.method === 'POST' && e.response.status === 200)!;
    expect(create.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $PETS_API_KEY' });
    expect(JSON.parse(create.request.postData!.text!)).toHaveProperty('name');
    expect(create.request.bodySize).toBe(Buffer.byteLength(create.request.postData!.text!));
    expect(create.response.headers).toContainEqual({ name: 'x-ratelimit-limit', value: expect.any(String) });
    expect(JSON.parse(create.response.content.text!)).toHaveProperty('id');
    expect(create.response.content.mimeType).toMatch(/^application\/json/);
    const limited = log.entries.find((e) => e.request.url.endsWith('?limit=1'))!;
    expect(limited.request.queryString).toEqual([{ name: 'limit', value: '1' }]);
    const unauthenticated = log.entries.find((e) => e.response.status === 401)!;
    expect(unauthenticated.response.headers).toContainEqual({ name: 'www-authenticate', value: expect.stringContaining('realm="pets"') });
  });

  it('keeps the traffic of a run that could not judge, and says why', () => {
    const { log } = written(refusedKeyRun());
    expect(log.entries.map((e) => e.response.status)).toEqual([401]);
    expect(log.comment).toMatch(/^Could not judge: The deployment refused the API key/);
  });

  it('shows a request that got no answer with status 0 and the reason, in the order sent', () => {
    const unreachable = written(unreachableRun());
    // The preflight's GET, tried three times.
    expect(unreachable.log.entries).toHaveLength(3);
    expect(unreachable.log.entries[2]).toMatchObject({ request: { method: 'GET', url: 'http://deployment.test/v1/pets' }, response: { status: 0, comment: expect.stringMatching(/ECONNREFUSED/) }, _error: expect.stringMatching(/ECONNREFUSED/) });
    expect(unreachable.log.comment).toMatch(/^Could not judge: Cannot reach http:\/\/deployment.test\/v1/);

    const { entries } = written(failing).log;
    expect(entries.filter((e) => e.response.status === 0).map((e) => e.request.url)).toEqual([...Array(3).fill(expect.stringMatching(/\/v1\/pets\?limit=1\.5$/)), expect.stringMatching(/\/v1\/pets$/)]);
    // The retried GET's answer follows its failed try, and says it was retried.
    const dropAt = entries.map((e) => e.response.status).lastIndexOf(0);
    expect(entries[dropAt + 1]).toMatchObject({ request: { url: entries[dropAt]!.request.url }, response: { status: 200 }, _retries: 1, comment: expect.stringMatching(/^Answered on try 2/) });
    expect([...entries].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime))).toEqual(entries);
  });

  it(`cuts a body past ${capturedBodyLimit} characters and says so, with its whole size`, () => {
    const big = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `Pet number ${i}`, categoryId: 1 })));
    const exchange: Exchange = {
      seq: 1, checkId: 'pagination', operationId: 'listPets', intent: 'valid', path: '/pets', bucket: 'key', retries: 0, sentAt: Date.parse('2026-01-01T00:00:00Z'),
      request: { method: 'GET', url: 'https://api.example.com/v1/pets', headers: { authorization: 'Bearer $PETS_API_KEY' } },
      response: { status: 200, headers: { 'content-type': 'application/json' }, rawHeaders: [['content-type', 'application/json']], body: big, bytes: new TextEncoder().encode(big), json: undefined, durationMs: 12 },
    };
    const report = { ...({} as RunReport), tool: { name: 'pets-conformance', version: '0.1.0' }, verdict: 'passed', baseUrl: 'https://api.example.com/v1', runId: 'r', startedAt: '2026-01-01T00:00:00.000Z', exchanges: [summarizeExchange(exchange)] } as RunReport;
    const [entry] = harReport(report).log.entries;
    expect(entry!.response.content.size).toBe(big.length);
    expect(entry!.response.content.text!.length).toBeLessThan(big.length);
    expect(entry!.response.content.text).toMatch(new RegExp(`… \\[cut: ${big.length} bytes in all\\]$`));
    expect(entry!.response.content.comment).toMatch(/cut after 65536 characters/);
    expect(entry).toMatchObject({ startedDateTime: '2026-01-01T00:00:00.000Z', time: 12 });
  });
});
