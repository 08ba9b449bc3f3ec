import type { OpenAPIV3 } from 'openapi-types';

// The contract as the mock and the suite use it, once the document is in memory: no Node, no file
// system, so a browser bundle (the mock core inside MSW's setupWorker) takes it too. Reading and
// dereferencing the file is spec/loadSpec.ts's; spec/bundledSpec.ts gives the document without a file.

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** One operation of the document, with what a router and a checker need to know of it. */
export interface SpecOperation {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path template, relative to the server URL, e.g. `/pets/{petId}`. */
  path: string;
  operation: OpenAPIV3.OperationObject;
  parameters: OpenAPIV3.ParameterObject[];
}

export interface LoadedSpec {
  /** The validated, fully dereferenced document: no `$ref` is left in it. */
  document: OpenAPIV3.Document;
  /** The file it was read from. */
  path: string;
  operations: SpecOperation[];
}

/** The spec of a document already dereferenced (no `$ref` left), said to come from `path`. */
export function specFromDocument(document: OpenAPIV3.Document, path: string): LoadedSpec {
  return { document, path, operations: listOperations(document) };
}

function listOperations(document: OpenAPIV3.Document): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!item) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      // Path-level parameters apply unless the operation overrides one with the same name and place.
      const own = (operation.parameters ?? []) as OpenAPIV3.ParameterObject[];
      const inherited = ((item.parameters ?? []) as OpenAPIV3.ParameterObject[]).filter(
        (p) => !own.some((o) => o.name === p.name && o.in === p.in),
      );
      operations.push({
        operationId: operation.operationId ?? `${method} ${path}`,
        method,
        path,
        operation,
        parameters: [...inherited, ...own],
      });
    }
  }
  return operations;
}

export function findOperation(spec: LoadedSpec, operationId: string): SpecOperation {
  const found = spec.operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`The OpenAPI document has no operation "${operationId}". Check spec/openapi.yaml.`);
  return found;
}

/** The JSON schema of a response body, or undefined when the response has none. */
export function responseSchema(op: SpecOperation, status: number | string): OpenAPIV3.SchemaObject | undefined {
  const response = op.operation.responses[String(status)] as OpenAPIV3.ResponseObject | undefined;
  return response?.content?.['application/json']?.schema as OpenAPIV3.SchemaObject | undefined;
}

export function requestBodySchema(op: SpecOperation): OpenAPIV3.SchemaObject | undefined {
  const body = op.operation.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  return body?.content['application/json']?.schema as OpenAPIV3.SchemaObject | undefined;
}

/** The document's schemas, by name (`Pet`, `NewPet`, `Error`, ...). */
export function componentSchema(spec: LoadedSpec, name: string): OpenAPIV3.SchemaObject {
  const schema = spec.document.components?.schemas?.[name] as OpenAPIV3.SchemaObject | undefined;
  if (!schema) throw new Error(`The OpenAPI document has no schema "${name}". Check spec/openapi.yaml.`);
  return schema;
}
