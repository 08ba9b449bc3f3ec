// The Prefer step (RFC 7240): the delay it asks for, and the answer it forces, once admitted.
import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { forcedErrorOf } from './faults.ts';
import { bodyText, lowerCased } from './answerBody.ts';
import { realisticBody } from './realisticBody.ts';
import { readPreferences, type Forced } from './readPreferences.ts';

/** Whether the request's Prefer forces no answer (none, a delay, or preferences it ignores): the store may answer it in one step. */
export function preferenceFree(ctx: Pick<ApiContext, 'maxPreferDelayMs'>, x: Exchange, op: SpecOperation): boolean {
  if (x.request.headers.prefer === undefined) return true;
  try {
    return (x.preferences = readPreferences(x.request.headers.prefer, op, { maxDelayMs: ctx.maxPreferDelayMs })).forced === undefined;
  } catch {
    // A Prefer the mock refuses is refused in its turn (after the key and the quota).
    return false;
  }
}

/**
 * Prefer step, once admitted and past the fault rules: its delay noted on the exchange (and
 * applied to the answer), the answer it forces returned; 400 for what the mock cannot honour.
 */
export function readPrefer(ctx: Pick<ApiContext, 'maxPreferDelayMs'>, x: Exchange): Forced | undefined {
  if (x.request.headers.prefer === undefined) return undefined;
  const { delayMs, forced } = x.preferences ?? readPreferences(x.request.headers.prefer, x.op, { maxDelayMs: ctx.maxPreferDelayMs });
  if (delayMs !== undefined) {
    x.preferredDelay = delayMs;
    x.headers['preference-applied'] = `delay=${delayMs}`;
  }
  return forced;
}

/** The answer Prefer forces: an error from the catalogue, or an example from the spec made realistic. */
export async function forcedAnswer(ctx: Pick<ApiContext, 'state' | 'spec' | 'examples'>, x: Exchange, forced: Forced): Promise<{ status: number; body: string | null }> {
  const { op, applied, code, example, dynamic, seed } = forced;
  if (code !== undefined && code >= 400) {
    x.headers['preference-applied'] = applied;
    throw forcedErrorOf(ctx, x, code, op, { cause: `Prefer: code=${code}`, undo: `Send the request without code=${code} for the real answer` });
  }
  const answered = await ctx.examples.respond(op, { ...(code !== undefined ? { code } : {}), ...(example !== undefined ? { exampleKey: example } : {}), dynamic, ...(seed !== undefined ? { seed } : {}) });
  let body = answered.body;
  if (example === undefined) {
    const realistic = await realisticBody(ctx.spec, { op, status: answered.status, seed: seed ?? (dynamic ? undefined : 'static'), query: x.checked?.query ?? {}, params: x.checked?.params ?? {} });
    if (realistic !== undefined) body = realistic;
  }
  Object.assign(x.headers, lowerCased(answered.headers), { 'preference-applied': applied });
  return { status: answered.status, body: bodyText(x, body) };
}
