// What a client's usage is made of, read from one request and its answer: the documented query
// parameters it sent (by name, each value as a kind, never the value), the names of the fields of
// the JSON body it sent, and the names of the fields of the JSON answer it was given. Names only:
// no value is kept, so no key or personal datum a body carries reaches a usage file. Pure and
// browser-safe: the mock (also inside a browser) and the proxy read requests the same way.

/** The contract's operations: method and path template, as a usage file names them. */
export const contractOperations: Readonly<Record<string, { method: string; path: string }>> = {
  listPets: { method: 'GET', path: '/pets' },
  createPet: { method: 'POST', path: '/pets' },
  getPet: { method: 'GET', path: '/pets/{petId}' },
  listStoreOrders: { method: 'GET', path: '/store/orders' },
};

const petStatuses = ['available', 'pending', 'sold'];

/**
 * The kind of a value of a documented query parameter: for `limit` (Minimum 1, maximum 100)
 * `in-range`, `out-of-range` or `not-integer`; for `status` (PetStatus) the value itself when it
 * is one of PetStatus, else `other`; for either, `empty` or `repeated`.
 */
export function valueKind(name: string, values: readonly string[]): string {
  if (values.length > 1) return 'repeated';
  const value = values[0] ?? '';
  if (value === '') return 'empty';
  if (name === 'limit') {
    if (!/^[+-]?\d+$/.test(value.trim())) return 'not-integer';
    const n = Number(value);
    return n >= 1 && n <= 100 ? 'in-range' : 'out-of-range';
  }
  return petStatuses.includes(value) ? value : 'other';
}

/** The documented query parameters of each operation: those a usage file records. */
export const documentedQuery: Readonly<Record<string, readonly string[]>> = { listPets: ['limit', 'status'] };

/** The documented parameters a request's query sent, each with the kind of its value. */
export function queryKinds(operationId: string, url: string): Record<string, string> {
  const at = url.indexOf('?');
  if (!documentedQuery[operationId] || at < 0) return {};
  const params = new URLSearchParams(url.slice(at + 1).split('#')[0]);
  const query: Record<string, string[]> = {};
  for (const name of new Set(params.keys())) query[name] = params.getAll(name);
  return queryKindsOf(operationId, query) ?? {};
}

/**
 * The same, from a query already parsed (a repeated name gives an array, as the mock's
 * pipeline holds it); undefined when it sent none of them.
 */
export function queryKindsOf(operationId: string, query: Readonly<Record<string, string | readonly string[]>>): Record<string, string> | undefined {
  const names = documentedQuery[operationId];
  if (!names) return undefined;
  let out: Record<string, string> | undefined;
  for (const name of names) {
    const values = query[name];
    if (values === undefined) continue;
    (out ??= {})[name] = valueKind(name, typeof values === 'string' ? [values] : values);
  }
  return out;
}

const parsed = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The names of a JSON object body's fields, sorted; empty for anything else. */
export function bodyFieldNames(text: string | undefined): string[] {
  return objectFieldNames(parsed(text));
}

/** The names of a JSON object's fields, sorted; empty for anything else (a body as already parsed). */
export function objectFieldNames(value: unknown): string[] {
  return isObject(value) ? sorted(Object.keys(value)) : [];
}

/**
 * The names of the fields an answer gave: an object's own, or for an array (Pets) those of its
 * items, each Pet field once; sorted. Empty for an answer that is not JSON.
 */
export function answerFieldNames(text: string | undefined): string[] {
  return fieldNamesOf(parsed(text));
}

/** The same, of an answer's value as parsed (or as the mock made it, before it was written as text). */
export function fieldNamesOf(value: unknown): string[] {
  if (isObject(value)) return sorted(Object.keys(value));
  const objects = Array.isArray(value) ? value.filter(isObject) : [];
  return sorted([...new Set(objects.flatMap((o) => Object.keys(o)))]);
}

/**
 * Names sorted in place, in the order `sort()` gives strings (by UTF-16 code units), by insertion:
 * a body's few field names are sorted in a fraction of the time `sort()` takes, and this runs on
 * every request.
 */
export function sorted(names: string[]): string[] {
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    for (; j >= 0 && names[j]! > name; j--) names[j + 1] = names[j]!;
    names[j + 1] = name;
  }
  return names;
}
