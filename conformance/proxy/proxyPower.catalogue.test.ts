// The proxy's power: with the suite's own traffic through it, the proxy fails each regression of a
// sample of the catalogues that the suite fails and whose fault that traffic shows, one or two of
// each kind. (Not every regression shows passively; on the whole catalogue the proxy fails 91 of
// the 93 the suite fails over HTTP at the default depth, so the sample holds no misses.)
import { afterEach, describe, expect, it } from 'vitest';
import { regressions, type Regression } from '../testing/regressions.ts';
import { regressions2 } from '../testing/regressions2.ts';
import { suiteThroughProxy } from './testing/suiteThroughProxy.ts';

const sample = [
  'list cache keyed on the first query parameter only',
  'gateway retries creates, storing each pet twice',
  'sold pets hidden by the website\'s feature flag',
  'getPet parses the id with parseInt',
  'getPet answers 500 for ids past 2^31',
  'unknown keys answered 403',
  'createPet without a key stores the pet before answering 401',
  'bodies gzip-compressed twice',
  'getPet Sunset with day and month swapped',
  'HEAD served without a key',
  'errors rendered as HTML for browsers and */*',
  'Accept with parameters answered 406',
  'If-None-Match answered 304 whatever the tag',
  'POST spends two requests of the quota',
  'quota bucket keyed on the raw Authorization header',
  'X-RateLimit-Reset sent as an ISO date',
  'createPet answers category_id',
  'unique index on name under a case- and accent-insensitive collation',
  'limit=100 refused',
  'large bodies answered 500',
  'createPet requires status',
  'createPet refuses status sold',
];
const catalogue: Regression[] = [...regressions, ...regressions2];
const sampled = sample.map((name) => {
  const regression = catalogue.find((r) => r.name === name);
  if (!regression) throw new Error(`No regression named ${name} in the catalogues.`);
  return regression;
});

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('the proxy, with the suite\'s own traffic through it', () => {
  // Over real HTTP a regression that spends the quota faster (a POST counted twice) makes the run
  // wait for the Pro key's next window in real time: up to 40 s (startDeployment starts 20 s before
  // a minute ends at the latest).
  it.each(sampled)('fails a deployment whose $kind regression is: $name', { timeout: 90_000 }, async ({ make, mockOptions }) => {
    const { result, proxy } = await suiteThroughProxy(make(), mockOptions, open);
    expect(result.verdict).toBe('failed');
    const { report, findings } = await proxy.judge();
    expect(report.verdict, JSON.stringify(report.checks.map((c) => [c.id, c.status]))).toBe('failed');
    expect(findings.filter((f) => f.level === 'failure').length).toBeGreaterThan(0);
  });
});
