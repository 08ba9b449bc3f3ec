import { openapiDocument } from './generated/openapiDocument.ts';
import { specFromDocument, type LoadedSpec } from './specModel.ts';

let spec: LoadedSpec | undefined;

/**
 * The contract without a file system: spec/openapi.yaml as loadSpec() gives it, from the document
 * committed in spec/generated/ (scripts/bundleData.mjs writes it). For a browser bundle, where no
 * file can be read; built once, on the first call, and shared, as loadSpec()'s result is read only.
 */
export function bundledSpec(): LoadedSpec {
  return (spec ??= specFromDocument(openapiDocument, 'spec/openapi.yaml'));
}
