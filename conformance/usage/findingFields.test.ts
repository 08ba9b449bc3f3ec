// The answer fields a finding is about, as the judges and the check's record give them to --usage.
import { describe, expect, it } from 'vitest';
import type { ErrorObject } from 'ajv';
import { Outcomes } from '../check.ts';
import { brokenFields } from '../specValidators.ts';
import { exchange } from '../testing/exchanges.ts';

const error = (instancePath: string, keyword: string, params: Record<string, unknown> = {}) => ({ instancePath, keyword, params, schemaPath: '' }) as ErrorObject;

describe('the fields a failure is about', () => {
  it('are the schema errors\' fields by name, array indexes dropped, a missing field named', () => {
    expect(brokenFields([error('/7/status', 'enum'), error('/2/status', 'enum'), error('/3', 'required', { missingProperty: 'name' })])).toEqual(['name', 'status']);
    expect(brokenFields([error('/categoryId', 'type')])).toEqual(['categoryId']);
  });

  it('are none when an error is about the whole body or a whole item: the failure is about the answer', () => {
    expect(brokenFields([error('/7/status', 'enum'), error('', 'type')])).toBeUndefined();
    expect(brokenFields([error('/4', 'type')])).toBeUndefined();
  });

  it('of a finding counted on its first are those of every occurrence, or none when one is about the whole answer', () => {
    const outcomes = new Outcomes(['listPets']);
    const e = exchange({ status: 200 });
    outcomes.fail('listPets', 'a', e, 'k', { fields: ['status'] });
    outcomes.fail('listPets', 'b', e, 'k', { fields: ['name'] });
    expect(outcomes.results()[0]!.findings[0]).toMatchObject({ occurrences: 2, fields: ['status', 'name'] });
    outcomes.fail('listPets', 'c', e, 'k');
    expect(outcomes.results()[0]!.findings[0]!.fields).toBeUndefined();
  });
});
