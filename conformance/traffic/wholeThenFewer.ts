// Traffic sent whole, as real clients send it, that shrinks to the part that matters.
import fc from 'fast-check';

/**
 * The ways to leave part of `value` out, largest first: each half, then each quarter, down to each
 * single item (as delta debugging narrows a failing input), never leaving it empty. A failing
 * input of n items shrinks to the one that matters in about 2·log2(n) tries, not n.
 */
export function* removals<T>(value: readonly T[]): Generator<T[]> {
  // A short last part of one size may be the whole of a part of the next: each is tried once.
  const tried = new Set<string>();
  for (let size = Math.floor(value.length / 2) || 1; value.length > 1; size = Math.floor(size / 2)) {
    for (let start = 0; start < value.length; start += size) {
      const end = Math.min(start + size, value.length);
      if (tried.has(`${start}:${end}`)) continue;
      tried.add(`${start}:${end}`);
      yield [...value.slice(0, start), ...value.slice(end)];
    }
    if (size === 1) return;
  }
}

/**
 * Every one of `items`, each with every one of its parts (`partsOf`, rebuilt with `withParts`):
 * drawn whole, every time. Shrunk first by leaving items out, then by leaving parts of each out
 * (`removals`), never down to no item or an item with no part. fc.subarray, by contrast, draws a
 * random part and shrinks towards none.
 */
export function wholeThenFewer<T, P>(items: readonly T[], partsOf: (item: T) => readonly P[], withParts: (item: T, parts: P[]) => T): fc.Arbitrary<T[]> {
  function* smaller(value: T[]): Generator<fc.Value<T[]>> {
    for (const fewer of removals(value)) yield new fc.Value(fewer, undefined);
    for (const [i, item] of value.entries()) {
      for (const parts of removals(partsOf(item))) yield new fc.Value(value.map((other, j) => (j === i ? withParts(item, parts) : other)), undefined);
    }
  }
  return new (class extends fc.Arbitrary<T[]> {
    generate(): fc.Value<T[]> {
      return new fc.Value([...items], undefined);
    }
    canShrinkWithoutContext(value: unknown): value is T[] {
      return Array.isArray(value);
    }
    shrink(value: T[]): fc.Stream<fc.Value<T[]>> {
      return new fc.Stream(smaller(value));
    }
  })();
}
