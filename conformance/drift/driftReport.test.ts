import { describe, expect, it } from 'vitest';
import type { DriftResult } from './classifyDrift.ts';
import { driftHtml, driftMarkdown, driftSummary } from './driftReport.ts';

const choice = (i: number) => ({ field: `errors.f${i}`, title: `choice ${i}`, row: 'Error `code` values', base: { value: i, shown: `<b>${i}</b>` }, against: { value: -i, shown: `${-i}` } });
const result: DriftResult = {
  verdict: 'broken', exitCode: 1, failOnDrift: false, againstIsMock: true,
  base: { label: 'A', baseUrl: 'https://staging.example/v1', requests: 30, warnings: 1 },
  against: { label: 'mock', baseUrl: 'http://mock.invalid/v1', requests: 30, warnings: 0 },
  breaks: [{ side: 'A', check: 'response-schema', rule: 'error.status-equal', quote: 'with `status` equal to the HTTP status code.', message: 'answered 404 with status 400', occurrences: 1, exchange: { method: 'GET', path: '/v1/pets/9', status: 404 } }],
  choices: Array.from({ length: 40 }, (_, i) => choice(i)),
  same: [], unobserved: [{ field: 'retryAfter', row: '`Retry-After` format', on: ['A', 'mock'] }], meaningless: [{ what: 'id of a created pet', base: '7', against: '251' }],
  profile: {}, cannotMake: [{ field: 'errors.banned', reason: 'the mock answers banned with the 429 the contract names; it cannot answer 403' }],
};

describe('the drift reports', () => {
  it('print a summary that fits one screen however many choices differ, breaks first', () => {
    const lines = driftSummary(result).split('\n');
    expect(lines.length).toBeLessThanOrEqual(25);
    expect(lines[0]).toMatch(/^Drift: A .* against mock .*a side breaks the contract, exit 1\.$/);
    expect(lines.findIndex((l) => l.startsWith('Contract breaks'))).toBeLessThan(lines.findIndex((l) => l.startsWith('Open choices')));
    expect(lines.join('\n')).toMatch(/… and \d+ more in the reports/);
    expect(lines.at(-1)).toMatch(/The mock cannot make 1 of A's choices: errors.banned/);
  });

  it('list every difference in Markdown and HTML, the HTML escaped', () => {
    const md = driftMarkdown(result);
    for (const heading of ['## Contract breaks', '## Open choices made differently', '## Choices the mock cannot make', '## Not observed', '## Meaningless differences']) expect(md).toContain(heading);
    expect(md.match(/\| choice \d+ /g)).toHaveLength(40);
    const html = driftHtml(result);
    expect(html).toContain('&lt;b&gt;39&lt;/b&gt;');
    expect(html).not.toContain('<b>39</b>');
  });
});
