import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8Length.ts';

describe('utf8Length', () => {
  it('counts the bytes TextEncoder writes, for any text, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => utf8Length(text) === new TextEncoder().encode(text).length));
    for (const text of ['', 'Rex', 'Médor', '犬', '🐕', '\ud83d', 'a\udc15b']) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});
