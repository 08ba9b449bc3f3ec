import { Ajv, type Options } from 'ajv';

/** OpenAPI 3.0 schema keywords that are annotations, not JSON Schema assertions. */
const openApiAnnotations = ['example', 'xml', 'externalDocs'];

// int64's ends as a JSON parser reads them into doubles: ±(2^63 − 1) rounds to ±2^63.
const INT64_END_AS_DOUBLE = 2 ** 63;

export interface SpecAjvOptions {
  /** Query and path parameters arrive as strings and must be coerced; bodies must not be. */
  coerceTypes?: boolean;
  /**
   * How strictly to read `format: int64`.
   * - `safe`: whole numbers JavaScript holds exactly, |n| <= 2^53 - 1 (RFC 7493, I-JSON, 2.2).
   *   The mock accepts these, so what it stores it can return unchanged.
   * - `range`: any whole number within int64 as a JSON parser reads it. The conformance suite reads
   *   a deployment's ids this way, so a legal id above 2^53 is not mistaken for a fault.
   */
  int64?: 'safe' | 'range';
  useDefaults?: boolean;
  /** Report every error, not only the first: for naming every field a value breaks. */
  allErrors?: boolean;
}

/** An Ajv instance that understands the OpenAPI document's schemas. */
export function createAjv({ coerceTypes = false, int64 = 'safe', useDefaults = false, allErrors = false }: SpecAjvOptions = {}): Ajv {
  // validateSchema: false — the document's schemas are checked against the OpenAPI specification
  // by its loader (SwaggerParser.validate; the mock validates once serving), and strict mode still
  // refuses an unknown keyword: checking each against JSON Schema's meta-schema too would compile
  // that meta-schema at every start, most of the mock's time to its first answer spent in Ajv.
  const options: Options = { allErrors, coerceTypes, useDefaults, strict: true, discriminator: true, strictTypes: false, removeAdditional: false, validateSchema: false };
  const ajv = new Ajv(options);
  ajv.addVocabulary(openApiAnnotations);
  ajv.addFormat('int64', {
    type: 'number',
    validate: int64 === 'safe' ? (n: number) => Number.isSafeInteger(n) : (n: number) => Number.isInteger(n) && Math.abs(n) <= INT64_END_AS_DOUBLE,
  });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  return ajv;
}
