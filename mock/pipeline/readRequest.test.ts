import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { frozenQuery, parseQuery } from './readRequest.ts';

/** The query as URLSearchParams reads it: the reference parseQuery must equal. */
function reference(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

describe('parseQuery', () => {
  it('reads plain queries, repeated names, empty pairs and names without a value', () => {
    expect(parseQuery('limit=20')).toEqual({ limit: '20' });
    expect(parseQuery('a=1&&a=2&b&=x&c=')).toEqual({ a: ['1', '2'], b: '', '': 'x', c: '' });
    expect(parseQuery('a=b=c')).toEqual({ a: 'b=c' });
  });

  it('decodes + and percent escapes, and drops a leading ?, as URLSearchParams does', () => {
    expect(parseQuery('name=a+b%20c&%C3%A9=%E2%82%AC&bad=%zz%C3')).toEqual(reference('name=a+b%20c&%C3%A9=%E2%82%AC&bad=%zz%C3'));
    expect(parseQuery('?limit=5')).toEqual({ limit: '5' });
  });

  it('reads any query as URLSearchParams does', () => {
    const chars = fc.constantFrom('a', 'b', '=', '&', '%', '+', '?', '2', '0', 'C', '3', ' ', '#', 'é', '\u0000', '\u{1F600}');
    fc.assert(fc.property(fc.array(chars, { maxLength: 24 }).map((parts) => parts.join('')), (search) => {
      expect(parseQuery(search)).toEqual(reference(search));
    }), { numRuns: 500 });
  });
});

describe('frozenQuery', () => {
  it('parses as parseQuery does, into an object that no step can change, its repeated names\' arrays included', () => {
    const query = frozenQuery('limit=5&status=sold&status=pending');
    expect(query).toEqual(parseQuery('limit=5&status=sold&status=pending'));
    expect(Object.isFrozen(query)).toBe(true);
    expect(Object.isFrozen(query.status)).toBe(true);
    expect(() => {
      (query as Record<string, unknown>).limit = 6;
    }).toThrow(TypeError);
  });
});
