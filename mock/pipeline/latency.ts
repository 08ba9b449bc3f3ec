import { realTimers } from '../state/realTimers.ts';
import type { Exchange } from './exchange.ts';

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

/**
 * Latency step, before the answer goes: the delay `Prefer` asked for, else one drawn from the
 * mock's latency. On a real timer, so that a test's fake timers neither hold the answer nor
 * release it early; unref'd, so that a held answer never keeps a shutting-down process alive.
 */
export function delayAnswer(latency: Latency | undefined, x: Exchange): Promise<void> | undefined {
  const delay = x.preferredDelay ?? (latency ? latency.minMs + Math.round(Math.random() * (latency.maxMs - latency.minMs)) : 0);
  if (delay <= 0) return undefined;
  return new Promise((resolve) => (realTimers.setTimeout(resolve, delay) as { unref?: () => void }).unref?.());
}
