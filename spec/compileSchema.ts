import type { Ajv, ValidateFunction } from 'ajv';
import { createAjv, type SpecAjvOptions } from './createAjv.ts';

/** Distinct schemas kept per set of options before the cache starts afresh (a --watch session may load many specs). */
const MAX_SCHEMAS = 500;

interface Compiler {
  ajv: Ajv;
  validators: Map<string, ValidateFunction>;
}

const compilers = new Map<string, Compiler>();

/**
 * A validator for one of the OpenAPI document's schemas, compiled once per process for each
 * distinct schema (by its JSON text) and set of options. Compiling costs milliseconds and a mock
 * compiles a dozen schemas every time it is built (every test builds one); a validator is a pure
 * function of its schema and options, so mocks and suite runs that share it share no state.
 * The schemas are self-contained (the loader dereferences the document), so equal text means
 * equal meaning.
 */
export function compileSchema(schema: object, options: SpecAjvOptions = {}): ValidateFunction {
  const optionsKey = JSON.stringify([options.coerceTypes ?? false, options.int64 ?? 'safe', options.useDefaults ?? false, options.allErrors ?? false]);
  let compiler = compilers.get(optionsKey);
  if (!compiler || compiler.validators.size >= MAX_SCHEMAS) compilers.set(optionsKey, (compiler = { ajv: createAjv(options), validators: new Map() }));
  const text = JSON.stringify(schema);
  let validate = compiler.validators.get(text);
  if (!validate) compiler.validators.set(text, (validate = compiler.ajv.compile(schema)));
  return validate;
}

