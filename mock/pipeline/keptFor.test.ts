import { describe, expect, it } from 'vitest';
import { keptFor } from './keptFor.ts';

describe('keptFor, a bounded memory of what a key derives', () => {
  it('derives a key once, however often it is asked, undefined values included', () => {
    const asked: string[] = [];
    const lengthOf = keptFor((key: string) => (asked.push(key), key === 'none' ? undefined : key.length));
    expect([lengthOf('abc'), lengthOf('abc'), lengthOf('none'), lengthOf('none')]).toEqual([3, 3, undefined, undefined]);
    expect(asked).toEqual(['abc', 'none']);
  });

  it('derives a key longer than the bound every time, and keeps nothing of it', () => {
    const asked: string[] = [];
    const upper = keptFor((key: string) => (asked.push(key), key.toUpperCase()), { maxLength: 4 });
    expect([upper('abcde'), upper('abcde'), upper('abcd'), upper('abcd')]).toEqual(['ABCDE', 'ABCDE', 'ABCD', 'ABCD']);
    expect(asked).toEqual(['abcde', 'abcde', 'abcd']);
  });

  it('starts again once it holds as many keys as its bound, so endless keys cannot grow it', () => {
    const asked: string[] = [];
    const same = keptFor((key: string) => (asked.push(key), key), { maxKeys: 2 });
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) same(key);
    // a and b kept; c empties the memory and is kept; a is derived again, b again after it.
    expect(asked).toEqual(['a', 'b', 'c', 'a', 'b']);
  });

  it('keeps what an object derives by the object itself: another object alike is derived again', () => {
    const asked: object[] = [];
    const text = keptFor((pet: { id: number }) => (asked.push(pet), JSON.stringify(pet)));
    const pet = { id: 1 };
    expect([text(pet), text(pet), text({ id: 1 })]).toEqual(['{"id":1}', '{"id":1}', '{"id":1}']);
    expect(asked).toHaveLength(2);
  });
});
