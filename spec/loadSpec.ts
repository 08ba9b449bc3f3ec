import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { OpenAPI, OpenAPIV3 } from 'openapi-types';
// js-yaml, which the $ref resolver loads anyway: a second YAML parser would cost the start its load.
import { load as parseYaml } from 'js-yaml';
import { projectPath } from '../common/projectRoot.ts';
import { specFromDocument, type LoadedSpec } from './specModel.ts';
import { dereferenceLocal } from './dereferenceLocal.ts';

/** swagger-parser, loaded when first needed: a start that only dereferences a document referring within itself never needs it. */
const swaggerParser = async () => (await import('@apidevtools/swagger-parser')).default;

/** Where the project's OpenAPI document lives. */
export const defaultSpecPath = projectPath('spec', 'openapi.yaml');

// The node-free part (the types, the operation listing, the look-ups) lives in specModel.ts; every
// import of it through this module keeps working.
export * from './specModel.ts';

/**
 * Reads, validates and dereferences the OpenAPI document. The mock and the conformance
 * suite both take the contract from here, so there is one copy of every schema and status.
 * `validate: false` only dereferences: a tenth of the time, for a start that validates later.
 */
export async function loadSpec(path: string = defaultSpecPath, { validate = true }: { validate?: boolean } = {}): Promise<LoadedSpec> {
  const { base, api } = await readDocument(path);
  // An OpenAPI 3.0 or 3.1 document referring only within itself is dereferenced here; any other is swagger-parser's to read (and refuse).
  const local = !validate && /^3\.[01]\.\d+$/.test(String((api as { openapi?: unknown }).openapi)) ? dereferenceLocal(api) : undefined;
  if (local) return specFromDocument(local as OpenAPIV3.Document, path);
  const SwaggerParser = await swaggerParser();
  const document = (await (validate ? SwaggerParser.validate(base, api, {}) : SwaggerParser.dereference(base, api, {}))) as OpenAPIV3.Document;
  return specFromDocument(document, path);
}

/** Validates a document against the OpenAPI specification; rejects with what is wrong. */
export async function validateSpec(path: string): Promise<void> {
  const { base, api } = await readDocument(path);
  await (await swaggerParser()).validate(base, api, {});
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
