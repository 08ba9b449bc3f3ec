import { describe, expect, it } from 'vitest';
import { beyondInt64, integerText, JsonSyntaxError, nestsDeeperThan, parseLossless, RAW_NUMBER, stringifyExact, toJsonText, toPlain } from './losslessJson.ts';

describe('parseLossless', () => {
  it('keeps integers above 2^53 - 1 exactly, as BigInt', () => {
    const parsed = parseLossless('[{"id": 9007199254740993, "n": 1.5, "s": "a\\"b"}, {"id":9223372036854775807}]');
    const value = parsed as { id: unknown }[];
    expect(integerText(value[0]!.id)).toBe('9007199254740993');
    expect(integerText(value[1]!.id)).toBe('9223372036854775807');
    expect(toPlain(parsed)).toEqual(JSON.parse('[{"id": 9007199254740993, "n": 1.5, "s": "a\\"b"}, {"id":9223372036854775807}]'));
  });

  it('names every integer outside int64, wherever it is', () => {
    const value = parseLossless('[{"id": 9223372036854775808}, {"id": 1, "categoryId": -9223372036854775809}, {"id": -9223372036854775808}]');
    expect(beyondInt64(value, 'pets')).toEqual([
      { path: 'pets[0].id', digits: '9223372036854775808' },
      { path: 'pets[1].categoryId', digits: '-9223372036854775809' },
    ]);
  });

  it('reads a number literal longer than 400 characters whole, as JSON.parse does, in a Pet\'s extra field', () => {
    const decimal = `4.${'1'.repeat(418)}`;
    expect(decimal).toHaveLength(420);
    const text = `{"weightKg":${decimal},"id":60,"name":"Rex","categoryId":1,"grams":${'9'.repeat(420)}}`;
    const parsed = parseLossless(text);
    const value = parsed as Record<string, unknown>;
    expect(value.weightKg).toBe(JSON.parse(text).weightKg);
    expect(integerText(value.id)).toBe('60');
    expect(integerText(value.grams)).toBe('9'.repeat(420));
    expect(toPlain(parsed)).toEqual(JSON.parse(text));
  });

  it('reads a 200,000-digit number in an extra field whole, and the fields after it', () => {
    const digits = `9${'7'.repeat(199_999)}`;
    const text = `[{"serial":${digits},"id":9007199254740993,"name":"Rex","categoryId":1},{"serial":-${digits}.5e-3,"id":2,"name":"Max","categoryId":1}]`;
    const value = parseLossless(text) as Record<string, unknown>[];
    expect(integerText(value[0]!.serial)).toBe(digits);
    expect(integerText(value[0]!.id)).toBe('9007199254740993');
    expect(value[1]!.serial).toBe(JSON.parse(text)[1].serial);
    expect(value[1]!.name).toBe('Max');
    expect(() => parseLossless(`{"serial":${digits}x}`)).toThrow(JsonSyntaxError);
  });

  it('refuses what JSON.parse refuses', () => {
    for (const text of ['', '{', '[1,]', '{"a":1,}', '01', 'nul', '"\u0001"', '[1] x', "{'a':1}", '-', '1.', '1e', '.5', '+1', `1${'0'.repeat(500)}.`]) {
      expect(() => parseLossless(text), text).toThrow(JsonSyntaxError);
    }
  });

  it('reads a __proto__ key as data', () => {
    const value = parseLossless('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('says whether a text nests deeper than a limit, brackets inside strings aside', () => {
    expect(nestsDeeperThan('[[[1]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(nestsDeeperThan('[{"a":"[[[[\\"[[["}]', 3)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(300)}${']'.repeat(300)}`)).toBe(true);
  });

  it('refuses a value nested thousands deep as not JSON, instead of exhausting the stack', () => {
    expect(() => parseLossless(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(/nesting deeper than 256/);
    expect(parseLossless(`${'['.repeat(200)}1${']'.repeat(200)}`)).toBeDefined();
  });
});

describe('stringifyExact and toJsonText', () => {
  it('writes BigInts with their digits and anything else as JSON.stringify does', () => {
    expect(stringifyExact({ id: 1, categoryId: 9223372036854775807n, list: [-9007199254740993n] })).toBe('{"id":1,"categoryId":9223372036854775807,"list":[-9007199254740993]}');
    expect(stringifyExact({ a: [1, 'x'] }, 2)).toBe(JSON.stringify({ a: [1, 'x'] }, null, 2));
  });

  it('never turns a string into a number, whatever marker-like text it holds', () => {
    const value = { name: '"bigint:5"', other: 'bigint:6', categoryId: 9007199254740993n };
    expect(JSON.parse(stringifyExact(value).replace('9007199254740993', '0'))).toEqual({ ...value, categoryId: 0 });
  });

  it('writes a raw-number string as the bare number in toJsonText, and only there', () => {
    const value = { categoryId: `${RAW_NUMBER}-9223372036854775809`, id: 9007199254740993n, name: 'Rex' };
    expect(toJsonText(value)).toBe('{"categoryId":-9223372036854775809,"id":9007199254740993,"name":"Rex"}');
    expect(stringifyExact(value)).toBe(`{"categoryId":"${RAW_NUMBER}-9223372036854775809","id":9007199254740993,"name":"Rex"}`);
  });
});
