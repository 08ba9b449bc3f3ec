import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldNamesOf, objectFieldNames, sorted } from './usageFacts.ts';

describe('usage facts', () => {
  it('sorts names as sort() sorts strings, by UTF-16 code units', () => {
    // Any UTF-16 code units, lone surrogates included (fast-check's 'binary' unit is as wide, and far slower to build).
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    fc.assert(fc.property(fc.array(fc.string({ unit: codeUnit, maxLength: 6 }), { maxLength: 12 }), (names) => {
      expect(sorted([...names])).toEqual([...names].sort());
    }));
  });

  it('names an object\'s fields, and a list\'s items\' fields each once, sorted', () => {
    expect(objectFieldNames({ status: 'sold', id: 1, name: 'Rex', categoryId: 2 })).toEqual(['categoryId', 'id', 'name', 'status']);
    expect(objectFieldNames([{ id: 1 }])).toEqual([]);
    expect(fieldNamesOf([{ name: 'A', id: 1 }, { id: 2, status: 'sold' }, 'not an object'])).toEqual(['id', 'name', 'status']);
    expect(fieldNamesOf(null)).toEqual([]);
  });
});
