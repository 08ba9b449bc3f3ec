// Validation of an API request against the spec: compiled once per operation, on its first request.
import type { OpenAPIV3 } from 'openapi-types';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import { requestBodySchema } from '../../spec/specModel.ts';
import { compileSchema } from '../../spec/compileSchema.ts';
import { isInt64 } from '../../common/json/losslessJson.ts';
import { compileExactSchema } from '../../spec/compileExactSchema.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { RequestValidationError } from '../errors/requestErrors.ts';


const decimalInteger = /^-?\d+$/;
/** How many unknown query parameters a message or header names before "...". */
export const MAX_LISTED = 20;
const paramOptions = { coerceTypes: true, useDefaults: true, int64: 'range' } as const;

export const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');

/** What validation reads of a routed request. */
export interface RequestToValidate {
  method: string;
  path: string;
  /** The path's parameters, as the route matched them. */
  params: Record<string, string>;
  query: Readonly<Record<string, string | readonly string[]>>;
  /** The parsed body (undefined when none was sent). */
  body: unknown;
}

export interface RequestValidation {
  /**
   * Plain decimal integers, the unknown query under `strict`, then path, body and query against
   * the spec; the parameters coerced as the spec types them. Throws what the catalogue answers.
   */
  validate(op: SpecOperation, request: RequestToValidate): CheckedParameters;
  /** Which query parameters an operation takes, in words ("takes only limit and status"). */
  takes(operationId: string): string;
  /** The names of `query` the operation does not define (the empty name aside), in the query's order. */
  unknownQuery(operationId: string, query: Query): readonly string[];
}

/** The parameters as validated and coerced: read only, as one may serve every request that sends its query. */
export type CheckedParameters = { readonly params: Readonly<Record<string, unknown>>; readonly query: Readonly<Record<string, unknown>> };

type Query = RequestToValidate['query'];

/**
 * What is derived from a query alone, kept per operation and per query object: one frozen query
 * serves every request that sends its text (ApiContext.query), and a client repeats its queries, so
 * most requests derive nothing. Held weakly, so it goes with its query (the bounded keptFor holds its
 * keys); and `derive` is given per call, for a refusal names the request it refuses.
 */
function perQuery<T>(): (operationId: string, query: Query, derive: () => T) => T {
  const byOperation = new Map<string, WeakMap<Query, T>>();
  return (operationId, query, derive) => {
    let kept = byOperation.get(operationId);
    if (!kept) byOperation.set(operationId, (kept = new WeakMap()));
    let value = kept.get(query);
    if (value === undefined) kept.set(query, (value = derive()));
    return value;
  };
}

const freezeAll = (checked: CheckedParameters): CheckedParameters => {
  for (const value of Object.values(checked.query)) if (Array.isArray(value)) Object.freeze(value);
  Object.freeze(checked.query);
  Object.freeze(checked.params);
  return Object.freeze(checked);
};

export function requestValidation(spec: LoadedSpec, { strict }: { strict: boolean }): RequestValidation {
  const definedQuery = new Map(spec.operations.map((op) => [op.operationId, new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))]));
  // Compiled on an operation's first request: compiling every operation's schemas at start would
  // hold the mock's first answer back for operations a session may never call.
  const validators = new Map<string, ReturnType<typeof validatorsOf>>();
  const validatorsFor = (op: SpecOperation) => {
    let v = validators.get(op.operationId);
    if (!v) validators.set(op.operationId, (v = validatorsOf(op)));
    return v;
  };

  const definedOf = (operationId: string): ReadonlySet<string> => definedQuery.get(operationId) ?? new Set();
  const takes = (operationId: string) => {
    const names = [...definedOf(operationId)];
    return names.length === 0 ? 'takes no query parameters' : `takes only ${names.join(' and ')}`;
  };

  const unknownKept = perQuery<readonly string[]>();
  const checkedKept = perQuery<CheckedParameters>();
  const unknownQuery = (operationId: string, query: Query): readonly string[] =>
    unknownKept(operationId, query, () => {
      const names = definedOf(operationId);
      return Object.freeze(Object.keys(query).filter((name) => name !== '' && !names.has(name)));
    });

  const check = (op: SpecOperation, request: RequestToValidate): CheckedParameters => {
    const v = validatorsFor(op);
    const params: Record<string, unknown> = { ...request.params };
    // Coerced and given defaults in place (paramOptions): a copy, the request's query is read only.
    const query = Object.create(null) as Record<string, unknown>;
    for (const name of Object.keys(request.query)) {
      const value = request.query[name]!;
      query[name] = typeof value === 'string' ? value : [...value];
    }
    for (const { name, part, int64 } of v.integers) {
      const value = (part === 'query' ? query : params)[name];
      if (typeof value !== 'string') continue;
      const where = part === 'query' ? 'query' : 'params';
      if (!decimalInteger.test(value)) throw new RequestValidationError(where, [{ keyword: 'type', instancePath: `/${name}`, schemaPath: '#/type', params: { type: 'integer' }, message: 'is invalid' }]);
      if (int64 && !isInt64(BigInt(value))) throw new RequestValidationError(where, [{ keyword: 'format', instancePath: `/${name}`, schemaPath: '#/format', params: { format: 'int64-range' }, message: 'is invalid' }]);
    }
    const unknown = strict ? unknownQuery(op.operationId, request.query) : [];
    if (unknown.length > 0) {
      const which = unknown.length === 1 ? `The query parameter ${quoted(unknown)} is` : `The query parameters ${quoted(unknown.slice(0, MAX_LISTED))}${unknown.length > MAX_LISTED ? ', ...' : ''} are`;
      throw new ApiError('UNKNOWN_QUERY_PARAMETER', `${which} not defined for ${request.method} ${request.path}, which ${takes(op.operationId)}. Remove ${unknown.length === 1 ? 'it' : 'them'}, or start the mock without --strict (strict: false) to have ${unknown.length === 1 ? 'it' : 'them'} ignored.`);
    }
    if (v.params && !v.params(params)) throw new RequestValidationError('params', v.params.errors ?? []);
    if (v.body && !v.body(request.body)) throw new RequestValidationError('body', v.body.errors ?? []);
    if (v.query && !v.query(query)) throw new RequestValidationError('query', v.query.errors ?? []);
    return { params, query };
  };

  return {
    takes,
    unknownQuery,
    validate(op, request) {
      // With no path parameter and no body, the answer turns on the query alone (and on `strict`,
      // fixed for this validation): kept, frozen, for every request that sends that query. A refusal
      // is thrown again each time.
      for (const _ in request.params) return check(op, request);
      if (request.body !== undefined) return check(op, request);
      return checkedKept(op.operationId, request.query, () => freezeAll(check(op, request)));
    },
  };
}

function validatorsOf(op: SpecOperation) {
  const part = (place: 'query' | 'path') => {
    const params = op.parameters.filter((p) => p.in === place);
    if (params.length === 0) return undefined;
    return compileSchema({ type: 'object', properties: Object.fromEntries(params.map((p) => [p.name, structuredClone(p.schema as OpenAPIV3.SchemaObject)])), required: params.filter((p) => p.required).map((p) => p.name) }, paramOptions);
  };
  const bodySchema = requestBodySchema(op);
  const integers = op.parameters
    .filter((p) => (p.in === 'query' || p.in === 'path') && (p.schema as OpenAPIV3.SchemaObject | undefined)?.type === 'integer')
    .map((p) => ({ name: p.name, part: p.in as 'query' | 'path', int64: (p.schema as OpenAPIV3.SchemaObject).format === 'int64' }));
  return { query: part('query'), params: part('path'), body: bodySchema ? compileExactSchema(structuredClone(bodySchema)) : undefined, integers };
}
