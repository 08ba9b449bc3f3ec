/**
 * The `"id"` values of a JSON text, as written, in order. JSON.parse reads an int64 id above 2^53
 * only approximately, and a path built from the approximation names another pet; the text keeps
 * the exact digits. Used only when a parsed id is not a safe integer.
 */
export function idTexts(body: string): string[] {
  return [...body.matchAll(/"id"\s*:\s*(-?\d+)/g)].map((m) => m[1]!);
}

/** The exact text of the `index`th id in `body` when the parsed `id` lost precision. */
export function exactId(id: number, body: string, index = 0): string {
  if (Number.isSafeInteger(id)) return String(id);
  return idTexts(body)[index] ?? String(id);
}
