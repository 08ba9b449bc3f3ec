// Values for generated requests. Valid values that break careless code must be created and read
// back exactly; edge values a deployment may refuse, but only with a 4xx; invalid values are near
// misses of valid ones, which must be refused.

/**
 * Valid names that trip escaping, encoding and normalisation, none over 40 characters: the contract
 * shows no maximum, and 40 is well within any a deployment could reasonably set.
 */
/** Valid names that trip escaping, encoding, normalisation and column widths. */
export const trickyNames: readonly string[] = [
  'Rex',
  'Biscuit the Second',
  '🐕‍🦺 Max 𝒳𝓎',
  '😺😸😹',
  '<script>alert("pet")</script>',
  '<b>Bold</b> & "Quoted" \'single\'',
  'C:\\pets\\rex \\u0041 \\n',
  'back\\slash"quote',
  'Zoë Café',
  'Zoe\u0301 Cafe\u0301',
  'ﬁﬂ Ⅻ ①',
  'Лайка 雪 כלב',
  '   padded   ',
  'a'.repeat(40),
  'Ünïcödé 🐾 '.repeat(3),
  '%41%20%3Cpet%3E',
  '{"name":"inner"}',
  '\u00a0nbsp\u2028sep\u2029',
  'null',
  '0',
];

/** Names a deployment may refuse (4xx) but must never answer with a 5xx, and must keep exactly if it takes them. */
export const edgeNames: readonly string[] = ['tab\there', 'line\nbreak', 'a'.repeat(41), 'Long name '.repeat(7), 'ä'.repeat(64) + 'ö', 'x'.repeat(255) + '!', 'ctl\u0001\u001f\u007f', 'nul\u0000byte', 'n'.repeat(5000), '\ud800 lone surrogate'.slice(0, 1) + 'x', ''];

/**
 * A NewPet body made hundreds of kilobytes long, which a deployment may refuse with 413 or 400. Its
 * bulk is insignificant whitespace (RFC 8259, 2), not its name: a deployment that takes it stores a
 * short name, so what a run leaves behind never makes a later run's lists large. The longest name
 * the suite creates is `edgeNames`' 5,000 characters: a page of 100 such pets stays far under what
 * the suite reads of one answer (`--max-body`).
 */
export const hugeBody = (json: string): string => json.replace(/^\{/, `{${' '.repeat(300 * 1024)}`);

/** int64 categoryIds a deployment may refuse as naming no category (the contract lists none). */
export const edgeCategoryIds: readonly string[] = ['0', '-1', '9007199254740993', '9223372036854775807', '-9223372036854775808'];

export const petStatuses = ['available', 'pending', 'sold'] as const;

/** Near misses of a valid limit, none of them an integer from 1 to 100 in any spelling. */
export const limitNearMisses: readonly string[] = ['0', '101', '-1', '5.5', '5abc', '9223372036854775808', '1e3', '0x65'];

/**
 * Other spellings of a valid limit (`1e1`, `0x10`, ` 5`, `100.0`): a strict server refuses them, a
 * validator that coerces types (ajv's coerceTypes, Fastify's default) reads them as the number. The
 * contract does not say how a query string becomes an integer, so either is legal.
 */
export const limitAliases: readonly string[] = ['1e1', '0x10', ' 5', '100.0'];

/** A NewPet body that breaks the schema, as text (sent as is). */
export const invalidBodies: readonly { what: string; body: string }[] = [
  { what: 'name missing', body: '{"categoryId":1}' },
  { what: 'categoryId missing', body: '{"name":"Rex"}' },
  { what: 'categoryId as a string', body: '{"name":"Rex","categoryId":"4"}' },
  { what: 'categoryId fractional', body: '{"name":"Rex","categoryId":1.5}' },
  { what: 'categoryId beyond int64', body: '{"name":"Rex","categoryId":9223372036854775808}' },
  { what: 'name a number', body: '{"name":12,"categoryId":1}' },
  { what: 'name null', body: '{"name":null,"categoryId":1}' },
  { what: 'status a near miss', body: '{"name":"Rex","categoryId":1,"status":"availabl"}' },
  { what: 'status in capitals', body: '{"name":"Rex","categoryId":1,"status":"SOLD"}' },
  { what: 'an array', body: '[{"name":"Rex","categoryId":1}]' },
  { what: 'truncated JSON', body: '{"name":"Rex","categoryId":1' },
  { what: 'a trailing comma', body: '{"name":"Rex","categoryId":1,}' },
];

/** Ids with trailing characters: no reading of the path makes them the integer `id`. */
export function malformedIds(id: string): string[] {
  return [`${id}abc`, `${id};x`, `${id}-1`];
}

/** Other spellings of the integer `id` (`0x4b`, `75e0`, `+75`, `75.0`): refused, or read as `id`, never as another pet. */
export function idAliases(id: string): string[] {
  return [`0x${BigInt(id).toString(16)}`, `${id}e0`, `+${id}`, `${id}.0`, `${id}%20`];
}
