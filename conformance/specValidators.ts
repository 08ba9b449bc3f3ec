import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { compileSchema } from '../spec/compileSchema.ts';
import { componentSchema, responseSchema, type LoadedSpec, type SpecOperation } from '../spec/loadSpec.ts';
import { describeAjvErrors } from '../spec/describeAjvErrors.ts';

export interface SchemaVerdict {
  valid: boolean;
  /** What is wrong, for a finding. */
  problem?: string;
}

/**
 * The spec's response schemas, compiled once. int64 values are read as a JSON parser reads them,
 * so a deployment whose ids pass 2^53 is not mistaken for a broken one.
 */
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
    return validate(value) ? { valid: true } : { valid: false, problem: describeAjvErrors(validate.errors, root) };
  }

  #compile(schema: object): ValidateFunction {
    let validate = this.#cache.get(schema);
    if (!validate) this.#cache.set(schema, (validate = compileSchema(schema, { int64: 'range' })));
    return validate;
  }
}
