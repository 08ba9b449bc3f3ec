import type { FastifySchema } from 'fastify';
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
