import { describe, expect, it } from 'vitest';
import { ajvView, exactNumber, mayLoseDigits, parseJsonExact, UnheldFraction } from './exactJson.ts';

describe('exactNumber', () => {
  it.each([
    ['1', 1],
    ['-0', -0],
    ['1.0', 1],
    ['1e3', 1000],
    ['4.0e1', 40],
    ['9007199254740991', 9007199254740991],
    ['9007199254740993', 9007199254740993n],
    ['9.007199254740993e15', 9007199254740993n],
    ['9007199254740993.000', 9007199254740993n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', 9223372036854775808n],
    ['1e20', 1e20],
    ['1.5', 1.5],
  ])('reads %s as the whole number or fraction it is', (literal, value) => {
    expect(exactNumber(literal)).toBe(value);
  });

  it('keeps a fraction a double rounds to a whole number as written, so it is refused as a fraction', () => {
    expect(exactNumber('9007199254740993.5')).toEqual(new UnheldFraction('9007199254740993.5'));
    expect(exactNumber('1e-400')).toEqual(new UnheldFraction('1e-400'));
  });

  it('does not build a power of ten for an exponent past any int64, reading it as JSON.parse does', () => {
    expect(exactNumber('1e999999999')).toBe(Infinity);
  });
});

describe('parseJsonExact', () => {
  it('reads a body with long or exponent literals exactly, and any other as JSON.parse does', () => {
    expect(parseJsonExact('{"name":"Rex","categoryId":9007199254740993}')).toEqual({ name: 'Rex', categoryId: 9007199254740993n });
    expect(parseJsonExact('{"categoryId":-9223372036854775808,"n":[1.0,2e1]}')).toEqual({ categoryId: -9223372036854775808n, n: [1, 20] });
    expect(parseJsonExact('{"name":"Rex","categoryId":7}')).toEqual({ name: 'Rex', categoryId: 7 });
  });

  it('names what is wrong with malformed text in JSON.parse\'s words', () => {
    expect(() => parseJsonExact('{"categoryId":9007199254740993')).toThrow(SyntaxError);
  });

  it('is set off by a 16-digit or exponent literal only', () => {
    expect([mayLoseDigits('{"categoryId":123456789012345}'), mayLoseDigits('{"categoryId":1234567890123456}'), mayLoseDigits('{"c":1e3}'), mayLoseDigits('{"name":"Rex","categoryId":1}')]).toEqual([false, true, true, false]);
  });
});

describe('ajvView', () => {
  it('gives Ajv a number within int64 for a BigInt within it, ±2^64 for one past it, and the value itself when nothing changes', () => {
    const plain = { a: 1, b: [2] };
    expect(ajvView(plain)).toBe(plain);
    expect(ajvView({ a: 9007199254740993n, b: [9223372036854775808n, -9223372036854775809n] })).toEqual({ a: 9007199254740992, b: [2 ** 64, -(2 ** 64)] });
  });
});
