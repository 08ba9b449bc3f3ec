// A document's `$ref`s within itself (`#/components/schemas/Pet`) replaced by what they point at,
// as @apidevtools/swagger-parser's dereference does: every use of one target is the same object,
// and a schema that refers to itself becomes a circular object. The contract's document refers
// only within itself, and loading swagger-parser costs a mock's start about a fifth of a second;
// a document with any other reference is left to swagger-parser (undefined here).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The value a JSON pointer (RFC 6901) within the fragment of a URI (RFC 3986) names, or undefined. */
function pointAt(document: Json, ref: string): Json | undefined {
  let value: Json | undefined = document;
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment === '') return value;
  if (!fragment.startsWith('/')) return undefined;
  for (const token of fragment.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, Json>)[key];
  }
  return value;
}

const isRef = (value: Json): value is { $ref: string } => value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.$ref === 'string';

/**
 * The document dereferenced in place, when every `$ref` in it is a plain reference (no sibling
 * keys) to a place within it; undefined, untouched, when one is not.
 */
export function dereferenceLocal<T extends object>(document: T): T | undefined {
  const root = document as unknown as Json;
  // First every reference is checked, so that a document left to swagger-parser is left whole.
  const refs: string[] = [];
  const seen = new Set<object>();
  const stack: Json[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (isRef(value)) {
      if (!value.$ref.startsWith('#') || Object.keys(value).length !== 1) return undefined;
      refs.push(value.$ref);
      continue;
    }
    for (const child of Object.values(value)) stack.push(child);
  }
  // A reference to a reference resolves through it; one that comes back to itself never ends.
  const targets = new Map<string, Json>();
  const resolve = (ref: string, through: Set<string> = new Set()): Json | undefined => {
    if (targets.has(ref)) return targets.get(ref);
    if (through.has(ref)) return undefined;
    through.add(ref);
    const target = pointAt(root, ref);
    const resolved = target !== undefined && isRef(target) ? resolve(target.$ref, through) : target;
    if (resolved !== undefined) targets.set(ref, resolved);
    return resolved;
  };
  for (const ref of refs) if (resolve(ref) === undefined) return undefined;
  const replaced = new Set<object>();
  const replace = (value: Json): void => {
    if (value === null || typeof value !== 'object' || replaced.has(value)) return;
    replaced.add(value);
    const entries: [string | number, Json][] = Array.isArray(value) ? value.map((child, i) => [i, child]) : Object.entries(value);
    for (const [key, child] of entries) {
      const next = isRef(child) ? targets.get(child.$ref)! : child;
      if (next !== child) (value as Record<string | number, Json>)[key] = next;
      replace(next);
    }
  };
  if (isRef(root)) return undefined;
  replace(root);
  return document;
}
