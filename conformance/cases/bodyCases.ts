import type { OpenAPIV3 } from 'openapi-types';
import { RAW_NUMBER, toJsonText } from '../../common/json/losslessJson.ts';
import { BELOW_INT64, BEYOND_INT64, type ValueCase } from './valueCase.ts';

export interface BodyCase extends ValueCase {
  /** The raw body; undefined sends none. */
  body: string | undefined;
  contentType: string;
  /** The object sent, when the body is one: what a 2xx must echo. */
  sent?: Record<string, unknown>;
}

/** A raw JSON number in a body: JSON.stringify cannot write one beyond a double's precision. */
const RAW = RAW_NUMBER;
const stringify = toJsonText;

const maxSafe = Number.MAX_SAFE_INTEGER;

/** Wrong values of other JSON types for a property of `schema`, named by what they are. */
function wrongTypes(schema: OpenAPIV3.SchemaObject, valid: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (schema.enum) {
    out.push(['unknown', 'not-a-status']);
    const first = String(schema.enum[0]);
    out.push(['case-variant', first.charAt(0).toUpperCase() + first.slice(1)]);
  }
  if (schema.type !== 'string') out.push(['string', typeof valid === 'number' || typeof valid === 'bigint' ? String(valid) : 'text']);
  if (schema.type !== 'integer' && schema.type !== 'number') out.push(['number', 12345]);
  if (schema.type === 'integer') out.push(['float', 1.5]);
  if (schema.type === 'integer' && schema.format === 'int64') {
    out.push(['beyond-int64', `${RAW}${BEYOND_INT64}`]);
    out.push(['below-int64', `${RAW}${BELOW_INT64}`]);
  }
  out.push(['boolean', true], ['object', { value: valid }], ['array', [valid]]);
  return out;
}

/**
 * The cases for a JSON request body, derived from its object schema in the document and a valid
 * body `base` with every property set: bodies at each constraint's edges that must be accepted,
 * each rule broken once, and bodies that are not an object of this schema at all.
 */
export function bodyCases(schema: OpenAPIV3.SchemaObject, base: Record<string, unknown>, schemaName: string): BodyCase[] {
  const properties = (schema.properties ?? {}) as Record<string, OpenAPIV3.SchemaObject>;
  const required = schema.required ?? [];
  const cases: BodyCase[] = [];
  const json = 'application/json';
  // createPet: "400 | Error. The body is missing required fields or has invalid values." Pinned:
  // a 422 there answers a request the contract has already given its status.
  const pinned = { refusedWith: 400 };
  const add = (name: string, sent: Record<string, unknown>, expect: ValueCase['expect'], what: string, rule: string) =>
    cases.push({ name: `body/${name}`, body: stringify(sent), contentType: json, sent, expect, what, rule, ...(expect === 'refuse' ? pinned : {}) });

  const requiredOnly = Object.fromEntries(required.map((p) => [p, base[p]]));
  add('required-only', requiredOnly, 'accept', 'only the required properties', `${schemaName} requires ${required.join(' and ')}`);
  add('all-properties', base, 'accept', 'every property', `${schemaName} has ${Object.keys(properties).join(', ')}`);
  // A media type's charset parameter does not change it (RFC 8259, 11: JSON has none to give, but may carry one).
  cases.push({ name: 'body/charset', body: stringify(requiredOnly), contentType: `${json}; charset=utf-8`, sent: requiredOnly, expect: 'accept', what: `a ${schemaName} labelled ${json}; charset=utf-8`, rule: `the body is JSON, and ${json}; charset=utf-8 names JSON` });

  for (const [name, property] of Object.entries(properties)) {
    const rule = `${schemaName}.${name} is ${property.enum ? `one of ${property.enum.join(', ')}` : `${property.format ? `an ${property.format} ` : 'a '}${property.type}`}${required.includes(name) ? ' and required' : ''}`;
    if (property.enum) {
      for (const value of property.enum) add(`${name}/${String(value)}`, { ...base, [name]: value }, 'accept', `${name} ${JSON.stringify(value)}`, rule);
    }
    if (property.type === 'string' && !property.enum) {
      // Any string is a string: JSON is Unicode (RFC 8259, 8.1), and what is stored must come back the same.
      add(`${name}/unicode`, { ...base, [name]: 'Zoë 🐾 Ωmega' }, 'accept', `${name} "Zoë 🐾 Ωmega"`, rule);
    }
    if (property.type === 'integer' && property.format === 'int64') {
      // The largest integers every JSON reader holds exactly (RFC 7493, 2.2). The contract lists no
      // categories, so a deployment may refuse one that names none; if it takes it, it keeps it exactly.
      add(`${name}/max-safe`, { ...base, [name]: maxSafe }, 'may-refuse', `${name} ${maxSafe}`, rule);
      add(`${name}/min-safe`, { ...base, [name]: -maxSafe }, 'may-refuse', `${name} ${-maxSafe}`, rule);
    }
    if (required.includes(name)) {
      const { [name]: _gone, ...rest } = base;
      add(`${name}/missing`, rest, 'refuse', `no ${name}`, rule);
    }
    for (const [kind, value] of wrongTypes(property, base[name])) {
      const shown = typeof value === 'string' && value.startsWith(RAW) ? value.slice(RAW.length) : toJsonText(value);
      add(`${name}/${kind}`, { ...base, [name]: value }, 'refuse', `${name} ${shown}`, rule);
      // An integer past int64 is also an id nothing has: a deployment may refuse it for naming no
      // category ("Fields of a category record: not shown"), with any 4xx; which it says is its choice.
      if (kind === 'beyond-int64' || kind === 'below-int64') delete cases[cases.length - 1]!.refusedWith;
    }
    // null for an optional property: some readers take it for "absent", and the contract does not say.
    add(`${name}/null`, { ...base, [name]: null }, required.includes(name) ? 'refuse' : 'open', `${name} null`, rule);
  }

  // Every field wrong at once: the Error of a body with several faults is one Error, as of one.
  add('every-field-boolean', Object.fromEntries(Object.keys(properties).map((p) => [p, true])), 'refuse', 'every field true', `no field of ${schemaName} is a boolean`);

  // A body that is no object lacks every required field: the same 400. Malformed JSON too: RFC 9110
  // (15.5.1) makes 400 the status of malformed syntax, and 422 (15.5.21) one for content that parses.
  const shape = (name: string, body: string | undefined, what: string, contentType = json, expect: ValueCase['expect'] = 'refuse') =>
    cases.push({ name: `body/${name}`, body, contentType, expect, what, rule: `the body is a required JSON ${schemaName} object`, ...(expect === 'refuse' && contentType === json ? pinned : {}) });
  shape('empty', undefined, 'no body');
  shape('null', 'null', 'the body null');
  shape('array', stringify([base]), `an array of one ${schemaName}`);
  shape('string', '"text"', 'a JSON string');
  shape('number', '42', 'a JSON number');
  shape('malformed', stringify(base).slice(0, -3), 'malformed JSON');
  // A JSON text is one value with whitespace around it (RFC 8259, 2), but "a JSON parser MAY accept
  // non-JSON forms or extensions" (9): a reader that stops at the first value (Go's json.Decoder)
  // may create the pet. Open: created (a warning) or refused with a 4xx and an Error, never a 5xx.
  shape('trailing-text', `${stringify(base)} x`, `a ${schemaName} followed by text`, json, 'open');
  shape('two-values', `${stringify(base)}${stringify(base)}`, `two ${schemaName} objects one after the other`, json, 'open');
  shape('empty-object', '{}', 'an empty object: every required field missing');
  // The contract says what the body is, not what a server does with JSON under another label: open.
  cases.push({ name: 'body/content-type', body: stringify(base), contentType: 'text/plain', sent: base, expect: 'open', what: `a valid ${schemaName} labelled text/plain`, rule: `the contract says the body is application/json, and is silent on a JSON body under another media type` });
  const form = new URLSearchParams(Object.entries(base).map(([k, v]) => [k, String(v)])).toString();
  shape('form-urlencoded', form, `a ${schemaName} sent as a form`, 'application/x-www-form-urlencoded');
  return cases;
}
