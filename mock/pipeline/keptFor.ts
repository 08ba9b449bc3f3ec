/**
 * `derive` of a key, kept for the keys last asked: a client repeats its paths and queries, so most
 * requests derive nothing. What is kept serves every request with that key, so it must be read
 * only. Bounded: keys longer than `maxLength` are derived each time, and the memory is emptied
 * once it holds `maxKeys` (a client walking through endless keys costs one derivation each, as
 * with no memory at all).
 */
export function keptFor<T>(derive: (key: string) => T, { maxKeys = 1024, maxLength = 256 }: { maxKeys?: number; maxLength?: number } = {}): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    if (key.length > maxLength) return derive(key);
    let value = kept.get(key);
    if (value === undefined && !kept.has(key)) {
      value = derive(key);
      if (kept.size >= maxKeys) kept.clear();
      kept.set(key, value);
    }
    return value as T;
  };
}
