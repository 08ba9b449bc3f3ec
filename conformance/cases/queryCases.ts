import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/loadSpec.ts';
import { BEYOND_INT64, type ValueCase } from './valueCase.ts';

export interface QueryCase extends ValueCase {
  parameter: string;
  /** The query string values to send (none: the parameter left out; two: repeated). */
  values: string[];
}

function capitalised(value: string): string {
  const variant = value.charAt(0).toUpperCase() + value.slice(1);
  return variant === value ? value.toLowerCase() : variant;
}

/**
 * The cases for one query parameter, derived from its schema in the document: each edge of an
 * integer's range and its default, each enum value, and their violations. An empty or repeated
 * parameter is `open`: the contract does not say how one is read.
 */
export function queryCases(parameter: OpenAPIV3.ParameterObject): QueryCase[] {
  const schema = (parameter.schema ?? {}) as OpenAPIV3.SchemaObject;
  const name = parameter.name;
  const cases: QueryCase[] = [];
  const add = (caseName: string, values: string[], expect: ValueCase['expect'], rule: string) =>
    cases.push({ parameter: name, name: `${name}/${caseName}`, values, what: values.length === 0 ? `no ${name}` : `${name}=${values.join(`&${name}=`)}`, expect, rule });
  if (schema.type === 'integer') {
    const range = `${name} is an integer${schema.minimum !== undefined ? ` from ${schema.minimum}` : ''}${schema.maximum !== undefined ? ` to ${schema.maximum}` : ''}`;
    if (!parameter.required) add('absent', [], 'accept', `${name} is optional`);
    if (schema.minimum !== undefined) {
      add('min', [String(schema.minimum)], 'accept', range);
      add('below-min', [String(schema.minimum - 1)], 'refuse', range);
    }
    if (schema.maximum !== undefined) {
      add('max', [String(schema.maximum)], 'accept', range);
      add('above-max', [String(schema.maximum + 1)], 'refuse', range);
    }
    if (schema.default !== undefined) add('default', [String(schema.default)], 'accept', range);
    add('beyond-int64', [BEYOND_INT64], 'refuse', range);
    add('float', ['1.5'], 'refuse', range);
    add('non-decimal', ['abc'], 'refuse', range);
    add('negative', ['-1'], schema.minimum !== undefined && schema.minimum > -1 ? 'refuse' : 'accept', range);
    add('empty', [''], 'open', range);
    const a = String(schema.minimum ?? 1);
    const b = String(schema.maximum ?? 2);
    add('repeated', [a, b], 'open', range);
  } else if (schema.enum) {
    const values = schema.enum.map(String);
    const rule = `${name} is one of ${values.join(', ')}`;
    for (const value of values) add(value, [value], 'accept', rule);
    // "Returns only animals with this status": a value that is no PetStatus matches no pet.
    add('unknown', ['not-a-status'], 'refuse-or-none', rule);
    if (values[0]) add('case-variant', [capitalised(values[0])], 'refuse-or-none', `${rule}, as written (enum values are case-sensitive)`);
    add('empty', [''], 'open', rule);
    if (values.length > 1) add('repeated', [values[0]!, values[1]!], 'open', rule);
  }
  return cases;
}

/** Every query parameter's cases for an operation, from the document. */
export function operationQueryCases(op: SpecOperation): QueryCase[] {
  return op.parameters.filter((p) => p.in === 'query').flatMap(queryCases);
}

/** `?limit=1&status=sold` from parameter values. */
export function queryString(values: Record<string, string[]>): string {
  const parts = Object.entries(values).flatMap(([name, list]) => list.map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`));
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
