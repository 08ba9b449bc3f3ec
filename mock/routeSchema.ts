import type { FastifySchema, preValidationHookHandler } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { requestBodySchema, type SpecOperation } from '../spec/loadSpec.ts';

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

/**
 * A preValidation hook that lets only plain decimal digits through for integer parameters. Ajv's
 * coercion alone would read `0x10`, `1e1` or ` 5` as numbers (it uses Number()), so
 * `/v1/pets/0x10` would find pet 16. Fails as a validation error, so it answers like one.
 */
export function decimalIntegersOnly(op: SpecOperation): preValidationHookHandler | undefined {
  const integers = op.parameters
    .filter((p) => (p.in === 'query' || p.in === 'path') && (p.schema as OpenAPIV3.SchemaObject | undefined)?.type === 'integer')
    .map((p) => ({ name: p.name, part: p.in === 'query' ? ('query' as const) : ('params' as const) }));
  if (integers.length === 0) return undefined;
  return (request, _reply, done) => {
    for (const { name, part } of integers) {
      const value = (request[part] as Record<string, unknown>)[name];
      if (typeof value === 'string' && !decimalInteger.test(value)) {
        return done(Object.assign(new Error(`${name} must be integer`), {
          validation: [{ keyword: 'type', instancePath: `/${name}`, schemaPath: '#/type', params: { type: 'integer' }, message: 'must be integer' }],
          validationContext: part === 'query' ? 'querystring' : 'params',
        }));
      }
    }
    done();
  };
}
