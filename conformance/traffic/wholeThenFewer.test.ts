import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removals, wholeThenFewer } from './wholeThenFewer.ts';

describe('removals', () => {
  it('leaves out each half, then each single item, largest first', () => {
    expect([...removals(['a', 'b', 'c', 'd'])]).toEqual([['c', 'd'], ['a', 'b'], ['b', 'c', 'd'], ['a', 'c', 'd'], ['a', 'b', 'd'], ['a', 'b', 'c']]);
  });

  it('never leaves nothing, and has nothing to leave out of one item or none', () => {
    for (const n of [2, 3, 5, 9, 16, 17]) {
      const items = Array.from({ length: n }, (_, i) => i);
      const all = [...removals(items)];
      expect(all.length, String(n)).toBeGreaterThan(0);
      expect(all.every((r) => r.length >= 1 && r.length < n), String(n)).toBe(true);
      expect(new Set(all.map((r) => r.join())).size, `${n}: each removal once`).toBe(all.length);
    }
    expect([...removals(['only'])]).toEqual([]);
    expect([...removals([])]).toEqual([]);
  });
});

describe('wholeThenFewer', () => {
  type Item = { name: string; parts: string[] };
  const items: Item[] = [
    { name: 'a', parts: ['a1', 'a2', 'a3'] },
    { name: 'b', parts: ['b1', 'b2', 'b3', 'b4', 'b5'] },
    { name: 'c', parts: ['c1'] },
  ];
  const arbitrary = wholeThenFewer(items, (item) => item.parts, (item, parts) => ({ ...item, parts }));

  it('draws every item with every part, whatever the seed', () => {
    for (const seed of [1, 2, 3]) expect(fc.sample(arbitrary, { seed, numRuns: 2 })).toEqual([items, items]);
  });

  it('shrinks a failing draw to the one item, and the one part, that fails it', () => {
    const result = fc.check(fc.property(arbitrary, (value) => !value.some((item) => item.parts.includes('b4'))), { seed: 1, numRuns: 1 });
    expect(result.failed).toBe(true);
    expect(result.counterexample).toEqual([[{ name: 'b', parts: ['b4'] }]]);
  });
});
