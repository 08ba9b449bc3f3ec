// Near misses of valid values, generated from the value itself rather than listed: every way one
// edit can make a valid value invalid, in every position it can take. A deployment that accepts a
// near miss compares loosely (a loop one short, a prefix, a split on spaces, a LIKE or a glob where
// an equality was meant, a cache keyed on part of an id); what the contract makes of each is in the
// comment of its generator.
import { isInt64 } from '../../common/json/losslessJson.ts';

/** One near miss: the class it belongs to (`key/change/end`) and the value. */
export interface NearMiss {
  kind: string;
  value: string;
  /**
   * How a record shows it, when the value would give a secret away (a key with one character
   * changed is all but one character of the key): the secret's name and the edit, in words, with
   * no `$`, so that a curl line made from the record sends the words, never the key.
   */
  shown?: string;
}

/** Where in a value an edit is made. */
export const positions = ['start', 'middle', 'end'] as const;
export type Position = (typeof positions)[number];

const indexAt = (text: string, position: Position) => (position === 'start' ? 0 : position === 'end' ? text.length - 1 : Math.floor(text.length / 2));

/** Another character of the same kind as `c` (a digit for a digit, a letter of the same case for a letter). */
export function otherCharacter(c: string): string {
  if (/[0-9]/.test(c)) return String((Number(c) + 1) % 10);
  if (/[a-z]/.test(c)) return c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1);
  if (/[A-Z]/.test(c)) return c === 'Z' ? 'A' : String.fromCharCode(c.charCodeAt(0) + 1);
  return c === 'x' ? 'y' : 'x';
}

/** The index of the letter nearest `at` whose case can change, or -1. */
function letterNear(text: string, at: number): number {
  for (let d = 0; d < text.length; d++) {
    for (const i of [at + d, at - d]) if (i >= 0 && i < text.length && text[i]!.toLowerCase() !== text[i]!.toUpperCase()) return i;
  }
  return -1;
}

/**
 * One edit of a value at each position: a character changed (same kind, so a check of the
 * alphabet does not refuse it first), one added, one removed, one letter's case flipped. None
 * equals the value; repeats (a one-character value's start is its end) are given once.
 */
export function editsOf(value: string, kindPrefix: string): NearMiss[] {
  const out: NearMiss[] = [];
  const add = (kind: string, text: string) => {
    if (text !== value && !out.some((n) => n.value === text)) out.push({ kind: `${kindPrefix}/${kind}`, value: text });
  };
  for (const position of positions) {
    const i = indexAt(value, position);
    if (value.length > 0) add(`change/${position}`, value.slice(0, i) + otherCharacter(value[i]!) + value.slice(i + 1));
    const insertAt = position === 'start' ? 0 : position === 'end' ? value.length : i;
    add(`add/${position}`, value.slice(0, insertAt) + otherCharacter(value[Math.min(insertAt, value.length - 1)] ?? 'a') + value.slice(insertAt));
    if (value.length > 1) add(`remove/${position}`, value.slice(0, i) + value.slice(i + 1));
    const letter = letterNear(value, i);
    if (letter >= 0) {
      const c = value[letter]!;
      add(`case/${position}`, value.slice(0, letter) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + value.slice(letter + 1));
    }
  }
  return out;
}

/**
 * The wildcards of the matchers a lookup may be written with where an equality was meant: SQL
 * LIKE's, a glob's, a regular expression's, each for one character and for any run of them.
 */
const wildcards = [
  { matcher: 'like', name: 'SQL LIKE', one: '_', run: '%' },
  { matcher: 'glob', name: 'a glob', one: '?', run: '*' },
  { matcher: 'regex', name: 'a regular expression', one: '.', run: '.*' },
] as const;

/**
 * The value with a wildcard in place of its middle character (`wildcard/like-one`) and of its
 * second half (`wildcard/like-run`): another value, which a lookup that matches patterns rather
 * than comparing takes for the value itself.
 */
export function wildcardsOf(value: string, kindPrefix: string): NearMiss[] {
  if (value.length < 2) return [];
  const middle = Math.floor(value.length / 2);
  return wildcards.flatMap(({ matcher, one, run }) => [
    { kind: `${kindPrefix}/wildcard/${matcher}-one`, value: value.slice(0, middle) + one + value.slice(middle + 1) },
    { kind: `${kindPrefix}/wildcard/${matcher}-run`, value: value.slice(0, middle) + run },
  ]).filter((n) => n.value !== value);
}

/** `key/change/end` in words: `one character changed at the end`. */
export function describeEdit(kind: string): string {
  const [, edit, position] = kind.split('/');
  if (edit === 'wildcard') {
    const [matcher, size] = position!.split('-');
    const w = wildcards.find((x) => x.matcher === matcher)!;
    return size === 'one' ? `its middle character replaced by ${w.name}'s any-character wildcard "${w.one}"` : `its second half replaced by ${w.name}'s any-run wildcard "${w.run}"`;
  }
  const what = edit === 'change' ? 'one character changed' : edit === 'add' ? 'one character added' : edit === 'remove' ? 'one character removed' : edit === 'case' ? "one letter's case flipped" : edit === 'quoted' ? 'in double quotes' : edit === 'second-credentials' ? 'as the second of two credentials' : edit;
  return position ? `${what} at the ${position}` : what!;
}

/** The scheme as clients spell it: RFC 9110 (11.1) makes its case free; RFC 6750 (2.1) allows one or more spaces before the token. */
export const schemeSpellings = ['Bearer ', 'bearer ', 'BEARER ', 'Bearer  ', 'Bearer\t'] as const;

/**
 * Near misses of an `Authorization: Bearer <key>` header: the key edited (each edit of `editsOf`)
 * or with a wildcard in it (`wildcardsOf`), and the key whole among other words: a word after it or
 * before it, alone with no scheme, under another scheme, glued to the scheme, the scheme with no
 * key, in double quotes, or after another credential. Each is "an invalid API key", so 401 (Authentication 3). `scheme` spells the scheme of
 * those that keep it; a tab is no separator the grammar allows (RFC 9110, 11.4: 1*SP), so a header
 * with one is invalid whatever key it holds.
 */
export function keyNearMisses(key: string, others: readonly string[] = [], scheme: string = 'Bearer ', name = 'PETS_API_KEY'): NearMiss[] {
  // An edit that gives another key of the run is no near miss.
  const edited = [...editsOf(key, 'key'), ...wildcardsOf(key, 'key')]
    .filter((n) => !others.includes(n.value))
    .map((n) => ({ kind: n.kind, value: `${scheme}${n.value}`, shown: `${scheme}<${name}, ${describeEdit(n.kind)}>` }));
  const wrapped: NearMiss[] = [
    { kind: 'key/word-after', value: `${scheme}${key} x` },
    { kind: 'key/word-before', value: `${scheme}x ${key}` },
    { kind: 'key/alone', value: key },
    { kind: 'key/other-scheme', value: `Token ${key}` },
    { kind: 'key/glued', value: `Bearer${key}` },
    { kind: 'key/scheme-only', value: scheme.trimEnd() },
    // A b64token has no quotes (RFC 6750, 2.1), and Authorization holds one set of credentials
    // (RFC 9110, 11.6.2): a parser that unquotes, or reads the last of two, serves these.
    { kind: 'key/quoted', value: `${scheme}"${key}"` },
    { kind: 'key/second-credentials', value: `${scheme}x, ${scheme}${key}` },
  ];
  return [...edited, ...wrapped];
}

/**
 * Near misses of a PetStatus: a prefix, the value cut short or extended, another case, padded,
 * several values in one (a comma list), a letter accented, a NUL after it. None is a PetStatus: a
 * deployment may refuse it with any 4xx (the contract names none), and a list it answers holds only
 * pets whose status is that value exactly ("Returns only animals with this status"), so none.
 * `others` are the enum's other values, for the lists.
 */
export function statusNearMisses(value: string, others: readonly string[]): NearMiss[] {
  const other = others.find((o) => o !== value) ?? value;
  const capital = value.charAt(0).toUpperCase() + value.slice(1);
  const candidates: NearMiss[] = [
    { kind: 'status/prefix', value: value.slice(0, Math.max(1, Math.ceil(value.length / 2))) },
    { kind: 'status/cut-short', value: value.slice(0, -1) },
    { kind: 'status/extended', value: `${value}s` },
    { kind: 'status/capitalised', value: capital },
    { kind: 'status/upper-case', value: value.toUpperCase() },
    { kind: 'status/padded-start', value: ` ${value}` },
    { kind: 'status/padded-end', value: `${value} ` },
    { kind: 'status/comma-list', value: `${value},${other}` },
    { kind: 'status/comma-space-list', value: `${value}, ${other}` },
    { kind: 'status/accented', value: value.replace(/e(?!.*e)/, 'é') },
    { kind: 'status/nul', value: `${value}\u0000` },
  ];
  return candidates.filter((n, i) => n.value !== '' && n.value !== value && ![value, ...others].includes(n.value) && candidates.findIndex((m) => m.value === n.value) === i);
}

/**
 * Ids next to a known one, in digits and in bits: one either side, the low byte kept with a higher
 * bit flipped (a cache keyed on `id & 0xff`), ten times it (a digit added), it past 2^31 and past
 * 2^53 with its low bits kept (int32 and double truncation), and the same id with a leading zero.
 * An int64 names either no pet (404) or the pet with exactly that id, never another
 * ("petId | Identifier of the animal"; "404 | The requested resource could not be found"); a
 * negative one too, since the service may assign any int64 ("Unique identifier assigned by the service").
 */
export function idNearMisses(id: bigint): NearMiss[] {
  const candidates: [string, bigint | string][] = [
    ['id/next', id + 1n],
    ['id/previous', id - 1n],
    ['id/bit-8', id ^ (1n << 8n)],
    ['id/bit-16', id ^ (1n << 16n)],
    ['id/times-ten', id * 10n],
    ['id/past-2^32', id + (1n << 32n)],
    ['id/past-2^53', id + (1n << 53n)],
    // The same integer in another decimal spelling: that pet, a 404 or a 4xx, never another pet.
    ['id/leading-zero', id < 0n ? `-0${-id}` : `0${id}`],
  ];
  return candidates
    .filter(([, v]) => typeof v === 'string' || (isInt64(v) && v !== id))
    .map(([kind, v]) => ({ kind, value: v.toString() }));
}
