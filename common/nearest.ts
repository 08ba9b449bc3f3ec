/**
 * The candidate a mistyped word most likely meant: the same word in another case, else the closest
 * by edit distance (Levenshtein), if close enough to be a typo. Undefined when none is.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const sameCase = candidates.find((c) => c.toLowerCase() === word.toLowerCase());
  if (sameCase !== undefined) return sameCase;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  // Two edits (a swapped pair), or a third of the word's letters, at most three: "depht" is depth,
  // "pagnation" is pagination, "xyz" is nothing.
  return best && best.distance <= Math.min(3, Math.max(2, Math.floor(word.length / 3))) ? best.candidate : undefined;
}

/** `; did you mean "readOnly"?`, or nothing when no candidate is near. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = nearest(word, candidates);
  return match === undefined ? '' : `; did you mean "${match}"?`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
