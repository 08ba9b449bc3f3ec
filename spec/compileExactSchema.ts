import type { ErrorObject } from 'ajv';
import { ajvView } from '../common/json/exactJson.ts';
import { compileSchema } from './compileSchema.ts';
import type { SpecAjvOptions } from './createAjv.ts';

/** A validator of values read by parseJsonExact; `errors` as Ajv's. */
export interface ExactValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * A validator for a schema over values read exactly (parseJsonExact): a `format: int64` field takes
 * any whole number within int64, a BigInt past 2^53 - 1 included, and refuses one past it, whose
 * error names the int64 range (`int64-range`, as a path parameter's). Ajv reads the value through
 * ajvView, as it knows no BigInt.
 */
export function compileExactSchema(schema: object, options: Omit<SpecAjvOptions, 'int64'> = {}): ExactValidator {
  const validate = compileSchema(schema, { ...options, int64: 'range' });
  const exact: ExactValidator = (value) => {
    const valid = validate(ajvView(value));
    exact.errors = validate.errors?.map((e) => (e.keyword === 'format' && (e.params as { format?: string }).format === 'int64' ? { ...e, params: { format: 'int64-range' } } : e)) ?? null;
    return valid;
  };
  return exact;
}
