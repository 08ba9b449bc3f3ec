/**
 * `derive` of a key (a text, or an object by its identity), kept for the keys last asked: a client
 * repeats its paths, queries and reads, so most requests derive nothing. What is kept serves every
 * request with that key, so it must be read only. Bounded: texts longer than `maxLength` are
 * derived each time, and the memory is emptied once it holds `maxKeys` (a client walking through
 * endless keys costs one derivation each, as with no memory at all).
 */
export function keptFor<K extends string | object, T>(derive: (key: K) => T, { maxKeys = 1024, maxLength = 256 }: { maxKeys?: number; maxLength?: number } = {}): (key: K) => T {
  const kept = new Map<K, T>();
  return (key) => {
    if (typeof key === 'string' && key.length > maxLength) return derive(key);
    let value = kept.get(key);
    if (value === undefined && !kept.has(key)) {
      value = derive(key);
      if (kept.size >= maxKeys) kept.clear();
      kept.set(key, value);
    }
    return value as T;
  };
}
