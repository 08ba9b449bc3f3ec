import { describe, expect, it } from 'vitest';
import { parseStructuredList } from './structuredList.ts';

describe('parseStructuredList (RFC 9651, 4.2.1)', () => {
  it('reads items with parameters: strings, tokens, integers, decimals, byte sequences and booleans', () => {
    const parsed = parseStructuredList('"minute";q=60;w=60, "day";q=1000;w=86400;qu="requests", tok;pk=:cHsdsRa894==:;x;d=1.5;b=?0');
    expect('items' in parsed).toBe(true);
    const items = (parsed as { items: { value: unknown; params: Map<string, unknown> }[] }).items;
    expect(items.map((i) => i.value)).toEqual([{ type: 'string', value: 'minute' }, { type: 'string', value: 'day' }, { type: 'token', value: 'tok' }]);
    expect(Object.fromEntries(items[2]!.params)).toEqual({ pk: { type: 'byte-sequence', value: 'cHsdsRa894==' }, x: { type: 'boolean', value: true }, d: { type: 'decimal', value: 1.5 }, b: { type: 'boolean', value: false } });
    expect(Object.fromEntries(items[1]!.params)).toMatchObject({ q: { type: 'integer', value: 1000 }, qu: { type: 'string', value: 'requests' } });
  });

  it.each([
    ['"minute";q=60,', 'a trailing ","'],
    ['"minute" "day"', 'something other than ","'],
    ['"minute;q=60', 'a string that never ends'],
    ['"minute";Q=60', 'a parameter key that is not lower-case'],
    ['("a" "b")', 'an inner list'],
    ['"m";q=1234567890123456', 'over 15 digits'],
    ['minute=60', 'something other than ","'],
  ])('refuses %s: %s', (value, why) => {
    const parsed = parseStructuredList(value);
    expect('fault' in parsed && parsed.fault).toContain(why);
  });
});
