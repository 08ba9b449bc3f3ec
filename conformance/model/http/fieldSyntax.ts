// The common grammar of HTTP field values (RFC 9110, 5.5 and 5.6): tokens, quoted strings, lists
// and parameters. Header values reach the suite as Node gives them: each octet one character
// (obs-text as U+0080-U+00FF).

/** RFC 9110, 5.6.2: `token = 1*tchar`. */
export const tokenPattern = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const tokenOnly = new RegExp(`^${tokenPattern}$`);
/** RFC 9110, 5.6.4: `quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE`. */
export const quotedPattern = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x20-\\x7e\\x80-\\xff])*"';
const quotedOnly = new RegExp(`^${quotedPattern}$`);

export const isToken = (text: string): boolean => tokenOnly.test(text);
export const isQuoted = (text: string): boolean => quotedOnly.test(text);

/** A quoted-string's content, its quoted-pairs undone. */
export const unquote = (quoted: string): string => quoted.slice(1, -1).replace(/\\(.)/g, '$1');

/** `token / quoted-string`, as a parameter's or directive's value is written; undefined when neither. */
export function tokenOrQuoted(text: string): { value: string; quoted: boolean } | undefined {
  if (isToken(text)) return { value: text, quoted: false };
  if (isQuoted(text)) return { value: unquote(text), quoted: true };
  return undefined;
}

/**
 * The members of a list-based field value (RFC 9110, 5.6.1: `#element`), split at the commas
 * outside quoted strings (and, for Link, outside `<...>`), each trimmed of OWS. Empty members are
 * kept as '' (a sender must not generate them); undefined when a quoted string or `<` never ends.
 */
export function listMembers(value: string, options: { angleBrackets?: boolean } = {}): string[] | undefined {
  const members: string[] = [];
  let start = 0;
  let quoted = false;
  let angled = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (angled) {
      if (c === '>') angled = false;
    } else if (c === '"') quoted = true;
    else if (c === '<' && options.angleBrackets) angled = true;
    else if (c === ',') {
      members.push(value.slice(start, i).replace(/^[ \t]+|[ \t]+$/g, ''));
      start = i + 1;
    }
  }
  if (quoted || angled) return undefined;
  members.push(value.slice(start).replace(/^[ \t]+|[ \t]+$/g, ''));
  return members;
}

export interface Parameter {
  /** Lower case: parameter names are case-insensitive (RFC 9110, 5.6.6). */
  name: string;
  value: string;
  quoted: boolean;
}

const parameterPattern = new RegExp(`^(${tokenPattern})[ \\t]*=[ \\t]*(${tokenPattern}|${quotedPattern})$`);

/**
 * `parameters = *( OWS ";" OWS [ parameter ] )`, `parameter = parameter-name "=" parameter-value`
 * (RFC 9110, 5.6.6), given the text from the first `;`. Whitespace around `=` is tolerated when
 * `bws` (Link and auth-params allow it; media types do not). Undefined when malformed.
 */
export function parseParameters(text: string, options: { bws?: boolean; valueOptional?: boolean } = {}): Parameter[] | undefined {
  const out: Parameter[] = [];
  const pieces = splitOutsideQuotes(text, ';');
  if (pieces === undefined) return undefined;
  // What comes before the first ';' must be nothing but OWS.
  if (pieces[0]!.trim() !== '') return undefined;
  for (const raw of pieces.slice(1)) {
    const piece = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (piece === '') continue;
    if (options.valueOptional && isToken(piece)) {
      out.push({ name: piece.toLowerCase(), value: '', quoted: false });
      continue;
    }
    const match = parameterPattern.exec(piece);
    if (!match) return undefined;
    if (!options.bws && /[ \t]/.test(piece.slice(match[1]!.length, piece.length - match[2]!.length))) return undefined;
    const parsed = tokenOrQuoted(match[2]!)!;
    out.push({ name: match[1]!.toLowerCase(), value: parsed.value, quoted: parsed.quoted });
  }
  return out;
}

/** Splits at `separator` outside quoted strings; undefined when a quoted string never ends. */
export function splitOutsideQuotes(text: string, separator: string): string[] | undefined {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) return undefined;
  out.push(text.slice(start));
  return out;
}

/** RFC 9110, 5.5: the characters a field value may not hold: CR, LF, NUL, and other controls but HTAB. */
export function forbiddenCharacters(value: string): { dangerous: string[]; controls: string[] } {
  const dangerous = new Set<string>();
  const controls = new Set<string>();
  for (const c of value) {
    const code = c.charCodeAt(0);
    if (code === 0x0d || code === 0x0a || code === 0x00) dangerous.add(hex(code));
    else if ((code < 0x20 && code !== 0x09) || code === 0x7f) controls.add(hex(code));
  }
  return { dangerous: [...dangerous], controls: [...controls] };
}

const hex = (code: number) => `%x${code.toString(16).toUpperCase().padStart(2, '0')}`;

/** RFC 9110, 5.6.7 and 10.2.3: `delay-seconds = 1*DIGIT`. */
export const isDelaySeconds = (text: string): boolean => /^\d+$/.test(text);
