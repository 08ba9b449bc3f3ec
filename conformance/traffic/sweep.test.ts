// The sweep against the mock and against a deployment that stores a 404 for its id: what every run
// asks for, whatever the seed, and the failure it shows.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Transform } from '../testing/deployment.ts';
import { failedCases, failedChecks, runOnFreshDeployment } from '../testing/runSuite.ts';

const checks = ['generated-traffic', 'data-integrity'];
const idOf = (url: string) => /\/pets\/(\d+)$/.exec(new URL(url).pathname)?.[1];

describe('the sweep', () => {
  it('asks for the id after the newest pet it created before it creates the next, which gets that id where ids count up', async () => {
    const result = await runOnFreshDeployment(undefined, { checks });
    expect(result.exitCode).toBe(0);
    const byCase = (name: string) => result.report.exchanges.find((e) => e.case === name);
    const next = byCase('generated/sweep/near-miss-id/next');
    const created = byCase('generated/sweep/once');
    expect(next?.status).toBe(404);
    expect(next!.seq).toBeLessThan(created!.seq);
    expect(created?.status).toBe(201);
    expect(byCase('generated/sweep/once/read-back')?.url).toMatch(new RegExp(`/pets/${idOf(next!.url)}$`));
  });

  it('fails a deployment whose cache keeps answering 404 for an id once a pet is created under it', async () => {
    const missing = new Set<string>();
    const storing404s: Transform = async (req, forward) => {
      if (req.method !== 'GET' || !/^\/v1\/pets\/\d+$/.test(req.url)) return forward(req);
      if (missing.has(req.url)) return { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'NOT_FOUND', message: 'No pet with that id.', status: 404 }) };
      const res = await forward(req);
      if (res.status === 404) missing.add(req.url);
      return res;
    };
    const result = await runOnFreshDeployment(storing404s, { checks });
    expect(failedChecks(result)).toContain('data-integrity');
    expect(failedCases(result, 'data-integrity')).toContain('generated/sweep/once/read-back');
  });
});

describe('the conditional reads of a pet', () => {
  /** Pets given a strong ETag, and a 304 where `matches` says If-None-Match holds it. */
  const tagged = (matches: (field: string, tag: string) => boolean): Transform => async (req, forward) => {
    const res = await forward(req);
    if (req.method !== 'GET' || !/^\/v1\/pets\/\d+$/.test(req.url) || res.status !== 200) return res;
    const tag = `"${createHash('sha256').update(String(res.body)).digest('hex').slice(0, 16)}"`;
    const field = req.headers['if-none-match'];
    return field !== undefined && matches(field, tag) ? { ...res, status: 304, headers: { ...res.headers, etag: tag }, body: '' } : { ...res, headers: { ...res.headers, etag: tag } };
  };
  /** RFC 9110, 13.1.2: each member of the list, compared weakly. */
  const weakly = (field: string, tag: string) => field.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
  /** Strongly: W/ kept. */
  const strongly = (field: string, tag: string) => field.split(',').some((t) => t.trim() === tag);
  /** The whole field as one tag: a list never split. */
  const whole = (field: string, tag: string) => field.replace(/^W\//, '') === tag;
  const run = (matches: (field: string, tag: string) => boolean) => runOnFreshDeployment(tagged(matches), { checks: ['generated-traffic', 'http-semantics'] });

  it('send the pet\'s own tag in the other strength and in a list, which a weak comparison answers 304', async () => {
    const result = await run(weakly);
    expect(result.exitCode).toBe(0);
    const byCase = (name: string) => result.report.exchanges.find((e) => e.case === `generated/http/pet/${name}`);
    const tag = byCase('get')!.responseHeaders.etag as string;
    expect(byCase('if-none-match/other-strength')).toMatchObject({ status: 304, requestHeaders: { 'if-none-match': `W/${tag}` } });
    expect(byCase('if-none-match/in-a-list')).toMatchObject({ status: 304, requestHeaders: { 'if-none-match': `"pets-conformance-never-given", ${tag}` } });
  });

  it('warn of a deployment that compares If-None-Match strongly, or reads a list as one tag, where it answered 304 to the tag alone', async () => {
    const warned = async (matches: (field: string, tag: string) => boolean) => {
      const result = await run(matches);
      expect(result.exitCode).toBe(0);
      return result.report.checks.find((c) => c.id === 'http-semantics')!.operations.flatMap((o) => o.findings).filter((f) => f.level === 'warning' && /matches it by weak comparison/.test(f.message ?? '')).map((f) => f.case);
    };
    expect(await warned(strongly)).toEqual(['generated/http/pet/if-none-match/other-strength']);
    expect(await warned(whole)).toEqual(['generated/http/pet/if-none-match/in-a-list']);
  });
});
