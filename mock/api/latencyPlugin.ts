import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { realTimers } from '../state/realTimers.ts';

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

export interface LatencyOptions {
  latency?: Latency;
  random?: () => number;
}

/**
 * Holds every API answer back by the configured latency, or by `Prefer: delay=MS` for one answer.
 * The wait is a timer, so a slow answer never holds up the others; a real one, so a test's fake
 * timers neither hold the answer back nor release it early.
 */
const latency: FastifyPluginAsync<LatencyOptions> = async (app, { latency: range, random = Math.random }) => {
  app.addHook('onSend', (request, _reply, payload, done) => {
    const ms = request.preferredDelay ?? (range ? range.minMs + Math.round(random() * (range.maxMs - range.minMs)) : 0);
    // Unref'd: a held answer never keeps a shutting-down process alive past its grace period.
    if (ms > 0) realTimers.setTimeout(done, ms, null, payload).unref();
    else done(null, payload);
  });
};

export const latencyPlugin = fp(latency, { name: 'latency', dependencies: ['prefer'] });
