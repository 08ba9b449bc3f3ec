import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countUtf8, utf8Length } from './utf8Length.ts';

describe.each([['in Node', utf8Length], ['without Node (a browser)', countUtf8]])('utf8Length %s', (_where, count) => {
  it('counts the bytes TextEncoder writes, for any text, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => count(text) === new TextEncoder().encode(text).length));
    for (const text of ['', 'Rex', 'Médor', '犬', '🐕', '\ud83d', 'a\udc15b']) expect(count(text)).toBe(new TextEncoder().encode(text).length);
  });
});
