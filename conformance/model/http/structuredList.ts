// A Structured Field List of Items (RFC 9651, 3.1 and 4.2.1), parsed as RFC 9651, 4.2 parses one:
// enough for the fields the suite reads as lists of items with parameters (the ratelimit draft's).
// Inner lists are refused: no field read here has them.

export type BareItem =
  | { type: 'integer'; value: number }
  | { type: 'decimal'; value: number }
  | { type: 'string'; value: string }
  | { type: 'token'; value: string }
  | { type: 'byte-sequence'; value: string }
  | { type: 'boolean'; value: boolean };

export interface StructuredItem {
  value: BareItem;
  /** The parameters, in order; a key given twice keeps its last value (RFC 9651, 4.2.3.2). */
  params: Map<string, BareItem>;
}

/** The field's members, or the reason it is no sf-list of items. Field lines are joined with ", " first (RFC 9651, 4.2). */
export function parseStructuredList(value: string): { items: StructuredItem[] } | { fault: string } {
  const input = value.replace(/^ +| +$/g, '');
  const items: StructuredItem[] = [];
  let i = 0;
  const fail = (what: string) => ({ fault: `${what} at character ${i + 1} of ${JSON.stringify(value)}` });
  if (input === '') return { items };
  while (i < input.length) {
    if (input[i] === '(') return fail('an inner list, which this field does not take,');
    const bare = parseBareItem(input, i);
    if ('fault' in bare) return { fault: `${bare.fault} (RFC 9651, 4.2.3.1) in ${JSON.stringify(value)}` };
    i = bare.end;
    const params = new Map<string, BareItem>();
    while (input[i] === ';') {
      i++;
      while (input[i] === ' ') i++;
      const key = /^[a-z*][a-z0-9_\-.*]*/.exec(input.slice(i));
      if (!key) return fail('a parameter key that is not lower-case letters, digits, _ - . * (RFC 9651, 3.1.2)');
      i += key[0].length;
      let param: BareItem = { type: 'boolean', value: true };
      if (input[i] === '=') {
        const parsed = parseBareItem(input, i + 1);
        if ('fault' in parsed) return { fault: `the parameter ${key[0]}: ${parsed.fault} (RFC 9651, 4.2.3.1) in ${JSON.stringify(value)}` };
        param = parsed.item;
        i = parsed.end;
      }
      params.set(key[0], param);
    }
    items.push({ value: bare.item, params });
    while (input[i] === ' ' || input[i] === '\t') i++;
    if (i >= input.length) break;
    if (input[i] !== ',') return fail('something other than "," after a member (RFC 9651, 4.2.1)');
    i++;
    while (input[i] === ' ' || input[i] === '\t') i++;
    if (i >= input.length) return fail('a trailing "," (RFC 9651, 4.2.1)');
  }
  return { items };
}

function parseBareItem(input: string, at: number): { item: BareItem; end: number } | { fault: string } {
  const rest = input.slice(at);
  const c = rest[0];
  if (c === undefined) return { fault: 'a value missing' };
  if (c === '-' || (c >= '0' && c <= '9')) {
    const m = /^-?(\d+)(?:\.(\d+))?/.exec(rest);
    if (!m) return { fault: `"${rest.slice(0, 8)}" is no number` };
    if (m[2] === undefined) {
      if (m[1]!.length > 15) return { fault: `the integer ${m[0]} has over 15 digits` };
      return { item: { type: 'integer', value: Number(m[0]) }, end: at + m[0].length };
    }
    if (m[1]!.length > 12 || m[2].length > 3) return { fault: `the decimal ${m[0]} has over 12 digits before or 3 after its point` };
    return { item: { type: 'decimal', value: Number(m[0]) }, end: at + m[0].length };
  }
  if (c === '"') {
    let out = '';
    for (let i = 1; i < rest.length; i++) {
      const ch = rest[i]!;
      if (ch === '\\') {
        const next = rest[i + 1];
        if (next !== '"' && next !== '\\') return { fault: 'a string with a backslash before neither " nor \\' };
        out += next;
        i++;
      } else if (ch === '"') return { item: { type: 'string', value: out }, end: at + i + 1 };
      else if (ch < ' ' || ch > '~') return { fault: 'a string with a character outside printable ASCII' };
      else out += ch;
    }
    return { fault: 'a string that never ends' };
  }
  if (c === ':') {
    const m = /^:([A-Za-z0-9+/=]*):/.exec(rest);
    if (!m) return { fault: 'a byte sequence that is not :base64:' };
    return { item: { type: 'byte-sequence', value: m[1]! }, end: at + m[0].length };
  }
  if (c === '?') {
    if (rest[1] === '0' || rest[1] === '1') return { item: { type: 'boolean', value: rest[1] === '1' }, end: at + 2 };
    return { fault: 'a boolean that is not ?0 or ?1' };
  }
  const token = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/.exec(rest);
  if (token) return { item: { type: 'token', value: token[0] }, end: at + token[0].length };
  return { fault: `"${rest.slice(0, 8)}" is no item (an integer, a string, a token, a byte sequence or a boolean)` };
}
