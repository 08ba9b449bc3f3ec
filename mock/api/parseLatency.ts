/** Latency added to every API answer: a fixed delay, or one drawn between two bounds. */
export interface Latency {
  minMs: number;
  maxMs: number;
}

/** Reads `--latency 200` or `--latency 100-500` (milliseconds). */
export function parseLatency(value: string): Latency {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(value);
  if (!match) throw new Error(`Latency "${value}" is neither MS nor MIN-MAX. Give for example 200 or 100-500.`);
  const minMs = Number(match[1]);
  const maxMs = match[2] === undefined ? minMs : Number(match[2]);
  if (maxMs < minMs) throw new Error(`Latency "${value}" has its maximum below its minimum. Give MIN-MAX with MIN <= MAX.`);
  return { minMs, maxMs };
}
