import type { FastifySchema, preValidationHookHandler } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { requestBodySchema, type SpecOperation } from '../../spec/loadSpec.ts';

/** `/pets/{petId}` in OpenAPI is `/pets/:petId` in fastify's router. */
export function toFastifyPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

function parametersSchema(op: SpecOperation, place: 'query' | 'path'): object | undefined {
  const params = op.parameters.filter((p) => p.in === place);
  if (params.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, structuredClone(p.schema as OpenAPIV3.SchemaObject)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * The fastify route schema of an operation, taken from the OpenAPI document: query, path and
 * body are validated against exactly what the contract declares, and 2xx bodies are serialized
 * from their declared schemas.
 */
export function routeSchema(op: SpecOperation): FastifySchema {
  const schema: FastifySchema = {};
  const querystring = parametersSchema(op, 'query');
  if (querystring) schema.querystring = querystring;
  const params = parametersSchema(op, 'path');
  if (params) schema.params = params;
  const body = requestBodySchema(op);
  if (body) schema.body = structuredClone(body);
  const response: Record<string, unknown> = {};
  for (const [status, value] of Object.entries(op.operation.responses)) {
    const content = (value as OpenAPIV3.ResponseObject).content?.['application/json']?.schema;
    if (/^2\d\d$/.test(status) && content) response[status] = structuredClone(content);
  }
  if (Object.keys(response).length > 0) schema.response = response;
  return schema;
}

const decimalInteger = /^-?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function validationError(name: string, part: 'query' | 'params', keyword: string, params: Record<string, unknown>): Error {
  return Object.assign(new Error(`${name} is invalid`), {
    validation: [{ keyword, instancePath: `/${name}`, schemaPath: `#/${keyword}`, params, message: 'is invalid' }],
    validationContext: part === 'query' ? 'querystring' : 'params',
  });
}

/**
 * A preValidation hook that lets only plain decimal digits through for integer parameters. Ajv's
 * coercion alone would read `0x10`, `1e1` or ` 5` as numbers (it uses Number()), so
 * `/v1/pets/0x10` would find pet 16. An int64 parameter is also held to the int64 range exactly,
 * on its digits, before it becomes a (rounding) JavaScript number. Fails as a validation error,
 * so it answers like one.
 */
export function decimalIntegersOnly(op: SpecOperation): preValidationHookHandler | undefined {
  const integers = op.parameters
    .filter((p) => (p.in === 'query' || p.in === 'path') && (p.schema as OpenAPIV3.SchemaObject | undefined)?.type === 'integer')
    .map((p) => ({ name: p.name, part: p.in === 'query' ? ('query' as const) : ('params' as const), int64: (p.schema as OpenAPIV3.SchemaObject).format === 'int64' }));
  if (integers.length === 0) return undefined;
  return (request, _reply, done) => {
    for (const { name, part, int64 } of integers) {
      const value = (request[part] as Record<string, unknown>)[name];
      if (typeof value !== 'string') continue;
      if (!decimalInteger.test(value)) return done(validationError(name, part, 'type', { type: 'integer' }));
      if (int64 && (BigInt(value) < INT64_MIN || BigInt(value) > INT64_MAX)) return done(validationError(name, part, 'format', { format: 'int64-range' }));
    }
    done();
  };
}
