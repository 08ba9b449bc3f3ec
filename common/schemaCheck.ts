// A value checked against one of the JSON Schemas the package ships for its files (the suite's
// config file, a usage file, a deployment profile): the schema compiled once, when the check is
// made, and each problem said as the project says them: where, the value given, what the schema
// wants there (the nearest allowed value or name when one is near). The caller adds what to do.
import { Ajv, type ErrorObject } from 'ajv';
import { didYouMean } from './nearest.ts';

export interface SchemaCheckOptions {
  /** Every problem (true), or only the first (default): a file fixed one problem at a time. */
  all?: boolean;
  /** What a name of the value's objects is, for an unknown one: `unknown option "readonly"`. Default: field. */
  nameIs?: string;
  /** What the value as a whole is called, for a problem of its own: 'the file'. */
  whole?: string;
}

/** The value's problems by the schema, each a sentence; empty when it fits. */
export type SchemaCheck = (value: unknown) => string[];

/** Where in the value: `checks[1]`, `clients[0].operations[2].operationId`; `whole` for the value itself. */
function placeOf(pointer: string, whole: string): string {
  if (pointer === '') return whole;
  return pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((at, part, i) => (/^\d+$/.test(part) ? `${at}[${part}]` : i === 0 ? part : `${at}.${part}`), '');
}

/** A value as a message shows it: JSON, cut when long. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describe(error: ErrorObject, { nameIs, whole }: Required<Omit<SchemaCheckOptions, 'all'>>): string {
  const at = placeOf(error.instancePath, whole);
  const params = error.params as Record<string, unknown>;
  const given = `${at} is ${shown(error.data)}`;
  switch (error.keyword) {
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return `${given}, not one of ${allowed.join(', ')}${typeof error.data === 'string' ? didYouMean(error.data, allowed) : ''}`;
    }
    case 'const':
      return `${given}, not ${JSON.stringify(params.allowedValue)}`;
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}).filter((k) => !k.startsWith('$'));
      return `${at === whole ? '' : `${at}: `}unknown ${nameIs} "${name}"${didYouMean(name, known)}`;
    }
    case 'required':
      return `${at} lacks ${JSON.stringify(params.missingProperty)}, which it must have`;
    default:
      return `${given}, but ${error.message ?? 'is invalid'}`;
  }
}

/** Compiles `schema` (draft-07, unknown keywords allowed) into a check of values against it. */
export function schemaCheck(schema: object, { all = false, nameIs = 'field', whole = 'the file' }: SchemaCheckOptions = {}): SchemaCheck {
  // verbose: each error carries the value (data) and the schema object it failed in (parentSchema).
  const validate = new Ajv({ allErrors: all, strict: false, verbose: true }).compile(schema);
  return (value) => {
    if (validate(value)) return [];
    const errors = validate.errors ?? [];
    return (all ? errors : errors.slice(0, 1)).map((error) => describe(error, { nameIs, whole }));
  };
}
