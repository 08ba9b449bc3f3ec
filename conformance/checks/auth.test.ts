// The auth check's near misses of the key, as a whole run sends them to the mock.
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../runReport.ts';
import { runOnFreshDeployment } from '../testing/runSuite.ts';

/** The near misses the auth check sent, by case name without the operation, each with its answer's status. */
const nearMisses = (exchanges: readonly ExchangeSummary[]) =>
  exchanges.filter((e) => e.case?.startsWith('auth/') && e.case.includes('/near-miss/')).map((e) => [e.case!.replace(/^auth\/[^/]+\//, ''), e.status] as const);

describe('the auth check\'s near misses of the key', () => {
  it('send the key with SQL LIKE\'s `_` in place of its middle character, refused with 401 as every near miss', async () => {
    const result = await runOnFreshDeployment(undefined, { checks: ['auth'] });
    const sent = nearMisses(result.report.exchanges);
    expect(sent).toContainEqual(['near-miss/wildcard-like-one', 401]);
    expect(sent.map(([name]) => name)).not.toContain('near-miss/change-middle');
    expect(sent.every(([, status]) => status === 401)).toBe(true);
    expect(result.exitCode).toBe(0);
  });

  it('change the middle character instead for a key with `_` there, which is its own LIKE pattern', async () => {
    const result = await runOnFreshDeployment(undefined, { checks: ['auth'], apiKey: 'live_key' }, { keys: [{ key: 'live_key', plan: 'pro' }] });
    const sent = nearMisses(result.report.exchanges);
    expect(sent).toContainEqual(['near-miss/change-middle', 401]);
    expect(sent.map(([name]) => name)).not.toContain('near-miss/wildcard-like-one');
    expect(result.exitCode).toBe(0);
  });

  it.each([1, 2, 3, 4, 5])('send the key with a word after and before it with one space after the scheme, whatever the seed (seed %i)', async (seed) => {
    const result = await runOnFreshDeployment(undefined, { checks: ['auth'], seed });
    const words = result.report.exchanges.filter((e) => /\/near-miss\/word-(after|before)$/.test(e.case ?? ''));
    expect(words).toHaveLength(2);
    for (const e of words) expect(e.requestHeaders.authorization ?? e.requestHeaders.Authorization).toMatch(/^\S+ (x \$PETS_API_KEY|\$PETS_API_KEY x)$/);
  });

  it.each([1, 2, 3, 4, 5])('send each edited key under a scheme spelling the grammar allows, never after a tab, whatever the seed (seed %i)', async (seed) => {
    const result = await runOnFreshDeployment(undefined, { checks: ['auth'], seed });
    const edited = result.report.exchanges.filter((e) => /\/near-miss\/(change|add|remove|case|wildcard)-/.test(e.case ?? ''));
    expect(edited.length).toBeGreaterThanOrEqual(6);
    for (const e of edited) expect(e.requestHeaders.authorization ?? e.requestHeaders.Authorization, e.case).toMatch(/^bearer +\S/i);
  });

  it.each([1, 2, 3])('fail a deployment that compares keys without regard to case, as a case-insensitive collation does (seed %i)', async (seed) => {
    const result = await runOnFreshDeployment(async (req, forward) => {
      const presented = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const known = ['demo-pro', 'demo-free'].find((key) => key.toLowerCase() === presented?.toLowerCase());
      return forward(known && presented !== known ? { ...req, headers: { ...req.headers, authorization: `Bearer ${known}` } } : req);
    }, { checks: ['auth'], seed });
    expect(result.exitCode).toBe(1);
  });

  it.each([1, 2, 3])('fail a deployment that unquotes a quoted key, or reads the last of two credentials (seed %i)', async (seed) => {
    const unquoting = await runOnFreshDeployment(async (req, forward) => {
      const quoted = /^(bearer) +"([^"]+)"$/i.exec(req.headers.authorization ?? '');
      return forward(quoted ? { ...req, headers: { ...req.headers, authorization: `Bearer ${quoted[2]}` } } : req);
    }, { checks: ['auth'], seed });
    expect(unquoting.exitCode).toBe(1);
    const lastOfTwo = await runOnFreshDeployment(async (req, forward) => {
      const last = /,\s*bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      return forward(last ? { ...req, headers: { ...req.headers, authorization: `Bearer ${last[1]}` } } : req);
    }, { checks: ['auth'], seed });
    expect(lastOfTwo.exitCode).toBe(1);
  });

  it.each([1, 2, 3])('fail a deployment that takes the token as the second space-separated word of the header (seed %i)', async (seed) => {
    const result = await runOnFreshDeployment(async (req, forward) => {
      const [scheme, word] = req.headers.authorization?.split(' ') ?? [];
      if (scheme?.toLowerCase() !== 'bearer') return forward(req);
      const { authorization: _, ...others } = req.headers;
      return forward({ ...req, headers: word ? { ...others, authorization: `Bearer ${word}` } : others });
    }, { checks: ['auth'], seed });
    expect(result.exitCode).toBe(1);
  });
});
