import { describe, expect, it } from 'vitest';
import { exactId, idTexts } from './idTexts.ts';

describe('exactId', () => {
  const body = '[{"id": 9007199254740993, "name": "A"}, {"id":9223372036854775807,"name":"B"}]';

  it('reads ids above 2^53 exactly from the text', () => {
    const parsed = JSON.parse(body) as { id: number }[];
    expect(String(parsed[0]!.id)).not.toBe('9007199254740993');
    expect(exactId(parsed[0]!.id, body, 0)).toBe('9007199254740993');
    expect(exactId(parsed[1]!.id, body, 1)).toBe('9223372036854775807');
  });

  it('leaves safe ids as they are', () => {
    expect(exactId(42, '{"id": 42}')).toBe('42');
    expect(idTexts('{"name": "no id"}')).toEqual([]);
  });
});
