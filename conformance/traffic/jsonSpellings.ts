// Other JSON texts of one NewPet value, and other spellings of its media type. RFC 8259 makes
// them the same value: insignificant whitespace around any token (2), members in any order (4:
// "unordered"), and any character of a string written as a `\u` escape, `/` as `\/` (7). Numbers
// are left as they are: `1.0` or `1e0` for an int64 categoryId is the same number but arguably no
// integer, so a deployment may refuse it. RFC 9110 (8.3.1) makes the media type's type, subtype and
// parameter names case-insensitive, and a parameter value the same quoted or not (5.6.6).

/** A NewPet as the suite sends it: the categoryId as its digits, exact past 2^53. */
export interface NewPetText {
  name: string;
  categoryId: string;
  status?: string;
}

export interface JsonSpelling {
  name: string;
  /** The JSON text of `pet`, the same value as `plainJson(pet)`. */
  write(pet: NewPetText): string;
}

/** `\u0041` for `A`: any character as its escape (one UTF-16 unit; astral ones as their pair). */
const escape = (c: string) => [...c].flatMap((ch) => (ch.length === 1 ? [ch] : ch.split(''))).map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** The members of a NewPet in the order given, each value as JSON text (`name` through `string`). */
function members(pet: NewPetText, string: (s: string) => string = JSON.stringify): [string, string][] {
  return [['"name"', string(pet.name)], ['"categoryId"', pet.categoryId], ...(pet.status !== undefined ? [['"status"', string(pet.status)] as [string, string]] : [])];
}

const object = (pairs: [string, string][], colon = ':', comma = ',', open = '{', close = '}') => `${open}${pairs.map(([k, v]) => `${k}${colon}${v}`).join(comma)}${close}`;

/** The plain text: no whitespace, the schema's order, JSON.stringify's escapes. */
export const plainJson = (pet: NewPetText): string => object(members(pet));

/** Each ASCII letter of a string as its `\u` escape, every other character as JSON.stringify writes it. */
const lettersEscaped = (s: string) => `"${[...s].map((c) => (/[A-Za-z]/.test(c) ? escape(c) : JSON.stringify(c).slice(1, -1))).join('')}"`;
/** Every character outside ASCII as its `\u` escape (a pair for one outside the BMP), as ASCII-only encoders write it. */
const asciiOnly = (s: string) => `"${[...s].map((c) => (c.codePointAt(0)! > 0x7e ? escape(c) : JSON.stringify(c).slice(1, -1))).join('')}"`;
/** `/` as `\/`, as PHP's json_encode and some Java encoders write it. */
const solidusEscaped = (s: string) => JSON.stringify(s).replaceAll('/', '\\/');

export const jsonSpellings: readonly JsonSpelling[] = [
  { name: 'pretty', write: (pet) => `${object(members(pet), ': ', ',\n  ', '{\n  ', '\n}')}\n` },
  { name: 'spaced', write: (pet) => object(members(pet), ' : ', ' , ', '{ ', ' }') },
  { name: 'tabs-and-crlf', write: (pet) => `\r\n\t${object(members(pet), ':\t', ',\r\n\t', '{\r\n\t', '\r\n}')}\r\n` },
  { name: 'members-reversed', write: (pet) => object(members(pet).reverse()) },
  { name: 'letters-escaped', write: (pet) => object(members(pet, lettersEscaped)) },
  { name: 'ascii-only', write: (pet) => object(members(pet, asciiOnly)) },
  { name: 'solidus-escaped', write: (pet) => object(members(pet, solidusEscaped)) },
  { name: 'keys-escaped', write: (pet) => object(members(pet).map(([k, v]) => [`"${escape(k.slice(1, 2))}${k.slice(2)}`, v])) },
];

/** Spellings of `application/json` (RFC 9110, 8.3.1 and 5.6.6): each names the same media type. */
export const jsonMediaTypes: readonly string[] = [
  'Application/JSON',
  'APPLICATION/JSON',
  'application/json;charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset="utf-8"',
  'application/json ; charset=utf-8',
  'Application/Json; Charset=UTF-8',
];
