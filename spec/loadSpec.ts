import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI, OpenAPIV3 } from 'openapi-types';
import { parse as parseYaml } from 'yaml';
import { projectPath } from '../common/projectRoot.ts';

/** Where the project's OpenAPI document lives. */
export const defaultSpecPath = projectPath('spec', 'openapi.yaml');

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

/**
 * Reads, validates and dereferences the OpenAPI document. The mock and the conformance
 * suite both take the contract from here, so there is one copy of every schema and status.
 * `validate: false` only dereferences: a tenth of the time, for a start that validates later.
 */
export async function loadSpec(path: string = defaultSpecPath, { validate = true }: { validate?: boolean } = {}): Promise<LoadedSpec> {
  const { base, api } = await readDocument(path);
  const document = (await (validate ? SwaggerParser.validate(base, api, {}) : SwaggerParser.dereference(base, api, {}))) as OpenAPIV3.Document;
  return { document, path, operations: listOperations(document) };
}

/** Validates a document against the OpenAPI specification; rejects with what is wrong. */
export async function validateSpec(path: string): Promise<void> {
  const { base, api } = await readDocument(path);
  await SwaggerParser.validate(base, api, {});
}

/**
 * Reads the document from disk here rather than handing its path to the $ref resolver: wherever a
 * global `window` exists (jsdom, in frontend tests) the resolver takes a path for a web address
 * and tries to download it. Given the parsed document and a file: base, it resolves nothing remotely.
 */
async function readDocument(path: string): Promise<{ base: string; api: OpenAPI.Document }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the OpenAPI document ${path}: ${(error as Error).message}. Check the path.`);
  }
  let api: unknown;
  try {
    api = parseYaml(text);
  } catch (error) {
    throw new Error(`${path} is not valid YAML or JSON: ${(error as Error).message}. Fix the file.`);
  }
  if (typeof api !== 'object' || api === null || Array.isArray(api)) throw new Error(`${path} does not hold an OpenAPI document (an object at its top). Fix the file.`);
  return { base: pathToFileURL(path).href, api: api as OpenAPI.Document };
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
