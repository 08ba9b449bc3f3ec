/** A key as it may appear in logs: its first four characters and its length. */
export function redactKey(key: string): string {
  return `${key.slice(0, Math.min(4, Math.floor(key.length / 2)))}…(${key.length})`;
}
