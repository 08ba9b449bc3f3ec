import type { ErrorObject, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { compileSchema } from '../spec/compileSchema.ts';
import { componentSchema, responseSchema, type LoadedSpec, type SpecOperation } from '../spec/loadSpec.ts';
import { describeAjvErrors } from '../spec/describeAjvErrors.ts';

export interface SchemaVerdict {
  valid: boolean;
  /** What is wrong, for a finding. */
  problem?: string;
  /**
   * Every field the value breaks, by name within an object or each item of an array (`status` for
   * `body[7].status`, `name` for a missing `name`); absent when an error is about the whole value
   * or an item as a whole (not an array, an item not an object).
   */
  fields?: string[];
}

/**
 * The spec's response schemas, compiled once. int64 values are read as a JSON parser reads them,
 * so a deployment whose ids pass 2^53 is not mistaken for a broken one.
 */
/** The fields Ajv's errors are about, by name (array indexes dropped); undefined when one is about a whole value or item. */
export function brokenFields(errors: readonly ErrorObject[]): string[] | undefined {
  const fields = new Set<string>();
  for (const error of errors) {
    const names = error.instancePath.split('/').slice(1).filter((part) => !/^\d+$/.test(part)).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'required') names.push(String((error.params as { missingProperty: unknown }).missingProperty));
    if (names.length === 0) return undefined;
    fields.add(names.join('.'));
  }
  return fields.size > 0 ? [...fields].sort() : undefined;
}

export class SpecValidators {
  readonly #cache = new Map<object, ValidateFunction>();
  /** The contract's Error schema. */
  readonly errorSchema: OpenAPIV3.SchemaObject;

  constructor(readonly spec: LoadedSpec) {
    this.errorSchema = componentSchema(spec, 'Error');
  }

  /**
   * The headers (lower case) an answer must carry: those the spec marks required on the response
   * documented for its status; for an undocumented status, those required on every response of
   * every operation (the contract: "every API response carries these headers").
   */
  requiredHeaders(op: SpecOperation, status: number): string[] {
    const required = (response: unknown) =>
      Object.entries(((response as OpenAPIV3.ResponseObject | undefined)?.headers ?? {}) as Record<string, OpenAPIV3.HeaderObject>)
        .filter(([, header]) => header.required === true)
        .map(([name]) => name.toLowerCase());
    const documented = op.operation.responses[String(status)];
    if (documented) return required(documented);
    this.#everywhere ??= this.spec.operations
      .flatMap((o) => Object.values(o.operation.responses).map(required))
      .reduce((common, names) => common.filter((n) => names.includes(n)));
    return this.#everywhere;
  }

  #everywhere: string[] | undefined;

  /** The documented statuses of an operation. */
  documentedStatuses(op: SpecOperation): number[] {
    return Object.keys(op.operation.responses).filter((s) => /^\d{3}$/.test(s)).map(Number);
  }

  /** The body schema for a status: the documented one, or Error for an undocumented 4xx. */
  schemaFor(op: SpecOperation, status: number): OpenAPIV3.SchemaObject | undefined {
    const documented = responseSchema(op, status);
    if (documented) return documented;
    return status >= 400 ? this.errorSchema : undefined;
  }

  check(schema: object, value: unknown, root = 'body'): SchemaVerdict {
    const validate = this.#compile(schema);
    if (validate(value)) return { valid: true };
    const problem = describeAjvErrors(validate.errors, root);
    const every = compileSchema(schema, { int64: 'range', allErrors: true });
    every(value);
    const fields = brokenFields(every.errors ?? []);
    return { valid: false, problem, ...(fields ? { fields } : {}) };
  }

  #compile(schema: object): ValidateFunction {
    let validate = this.#cache.get(schema);
    if (!validate) this.#cache.set(schema, (validate = compileSchema(schema, { int64: 'range' })));
    return validate;
  }
}
