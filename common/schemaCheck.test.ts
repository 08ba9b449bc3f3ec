import { describe, expect, it } from 'vitest';
import { schemaCheck } from './schemaCheck.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['format'],
  properties: {
    $schema: { type: 'string' },
    format: { const: 'pets-usage/1' },
    readOnly: { type: 'boolean' },
    checks: { type: 'array', items: { enum: ['auth', 'pagination'] } },
    clients: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { client: { type: 'string' }, label: { type: 'string' } } } },
  },
};

describe('schemaCheck', () => {
  it('passes a value that fits', () => {
    expect(schemaCheck(schema)({ format: 'pets-usage/1', checks: ['auth'] })).toEqual([]);
  });

  it('says where, the value given, and what is allowed there, with the nearest allowed value', () => {
    const check = schemaCheck(schema);
    expect(check({ format: 'pets-usage/1', checks: ['auth', 'pagnation'] })).toEqual(['checks[1] is "pagnation", not one of auth, pagination; did you mean "pagination"?']);
    expect(check({ format: 'pets-usage/2' })).toEqual(['format is "pets-usage/2", not "pets-usage/1"']);
    expect(check({ format: 'pets-usage/1', readOnly: 'yes' })).toEqual(['readOnly is "yes", but must be boolean']);
    expect(check({})).toEqual(['the file lacks "format", which it must have']);
  });

  it('names an unknown name as the caller calls it, with the nearest known one at its own level, never $schema', () => {
    expect(schemaCheck(schema, { nameIs: 'option' })({ format: 'pets-usage/1', readonly: true })).toEqual(['unknown option "readonly"; did you mean "readOnly"?']);
    expect(schemaCheck(schema)({ format: 'pets-usage/1', clients: [{ client: 'web', lable: 'Web' }] })).toEqual(['clients[0]: unknown field "lable"; did you mean "label"?']);
    expect(schemaCheck(schema)({ format: 'pets-usage/1', $schemas: 'x' })).toEqual(['unknown field "$schemas"']);
  });

  it('gives the first problem, or every one when asked, and cuts a long value', () => {
    const value = { format: 'pets-usage/2', readOnly: 'x'.repeat(200) };
    expect(schemaCheck(schema)(value)).toHaveLength(1);
    const every = schemaCheck(schema, { all: true, whole: '(the profile)' })(value);
    expect(every).toEqual(['format is "pets-usage/2", not "pets-usage/1"', `readOnly is "${'x'.repeat(76)}..., but must be boolean`]);
    expect(schemaCheck(schema, { whole: '(the profile)' })([])).toEqual(['(the profile) is [], but must be object']);
  });
});
