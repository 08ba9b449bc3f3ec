import { describe, expect, it } from 'vitest';
import { cappedHeaders, cut, keptHeaders } from './keptText.ts';

describe('what the proxy keeps of a head', () => {
  it('keeps 8 KiB of a header\'s values and says how much it left out, the key whole, names in lower case', () => {
    const lines = ['Authorization', `Bearer ${'k'.repeat(10_000)}`, ...Array.from({ length: 20 }, () => ['X-Filler', 'f'.repeat(1000)]).flat(), 'Accept', 'application/json'];
    const kept = cappedHeaders(lines);
    expect(kept.authorization).toBe(`Bearer ${'k'.repeat(10_000)}`);
    expect(kept.accept).toBe('application/json');
    // 20 values of 1,000 with ", " between: 20,038 characters, of which 8,192 are kept.
    expect(kept['x-filler']).toBe(`${`${'f'.repeat(1000)}, `.repeat(9).slice(0, 8192)}… (${20 * 1000 + 19 * 2 - 8192} more characters not kept)`);
  });

  it('keeps 200 names and counts the lines of the others', () => {
    const kept = cappedHeaders(Array.from({ length: 250 }, (_, i) => [`X-${i}`, 'v']).flat());
    expect(Object.keys(kept)).toHaveLength(201);
    expect(kept['x-proxy-note']).toBe('50 more header lines of other names not kept');
  });

  it('keeps a header named __proto__ as a header', () => {
    const kept = cappedHeaders(['__proto__', 'x']);
    expect(Object.entries(kept)).toEqual([['__proto__', 'x']]);
    expect(Object.getPrototypeOf(kept)).toBe(null);
    expect(Object.entries(keptHeaders({ ...kept }))).toEqual([['__proto__', 'x']]);
  });

  it('cuts a text to a string of its own', () => {
    expect(cut('abcdef', 3)).toBe('abc');
    expect(cut('ab', 3)).toBe('ab');
  });
});
