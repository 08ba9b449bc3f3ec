import { describe, expect, it } from 'vitest';
import { petJson, petsJson, readPetsJson } from './petJson.ts';

describe('the pet serializer', () => {
  it('writes a categoryId past 2^53 - 1 with its digits, and a pet within it as JSON.stringify does', () => {
    const big = { id: 1, name: 'Rex', categoryId: 9223372036854775807n, status: 'available' as const };
    expect(petJson(big)).toBe('{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"}');
    expect(petJson({ id: 2, name: 'Tom', categoryId: 3 })).toBe(JSON.stringify({ id: 2, name: 'Tom', categoryId: 3 }));
    expect(petsJson([big, { id: 2, name: 'Tom', categoryId: -9007199254740993n }])).toBe('[{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"},{"id":2,"name":"Tom","categoryId":-9007199254740993}]');
  });

  it('reads back what it wrote, every digit kept', () => {
    const pets = [{ id: 1, name: 'Rex', categoryId: 9007199254740993n }, { id: 2, name: 'Tom', categoryId: 4 }];
    expect(readPetsJson(petsJson(pets))).toEqual(pets);
  });
});
