import { describe, expect, it } from 'vitest';
import { compileSchema } from './compileSchema.ts';

const pet = () => ({ type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } });

describe('compileSchema', () => {
  it('gives equal schemas the same validator, even as different objects', () => {
    expect(compileSchema(pet())).toBe(compileSchema(pet()));
  });

  it('compiles each set of options on its own: the same schema validates as each asks', () => {
    const safe = compileSchema(pet());
    const range = compileSchema(pet(), { int64: 'range' });
    expect(range).not.toBe(safe);
    expect(safe({ id: 2 ** 60 })).toBe(false);
    expect(range({ id: 2 ** 60 })).toBe(true);
    const coercing = compileSchema({ type: 'object', properties: { limit: { type: 'integer' } } }, { coerceTypes: true });
    const query = { limit: '5' };
    expect(coercing(query)).toBe(true);
    expect(query.limit).toBe(5);
    expect(compileSchema({ type: 'object', properties: { limit: { type: 'integer' } } })({ limit: '5' })).toBe(false);
  });

});
