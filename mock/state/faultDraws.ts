/**
 * The draws that decide whether a rule with a probability fires: the Lehmer generator of Park and
 * Miller (state × 48271 mod 2^31 − 1). Each rule has its own state, started from its seed, so a
 * rule fires on the same requests in every run, and whatever other rules do. Every product stays
 * below 2^47, exact in a double, so Redis's Lua (luaScripts.ts, fireFaultLua) draws exactly the
 * same numbers: a rule fires on the same requests in memory and on Redis.
 */
export const FAULT_DRAW_MODULUS = 2_147_483_647;
export const FAULT_DRAW_MULTIPLIER = 48_271;

/** The first state for a seed (a whole number from 0 to 2^32 − 1); near seeds start far apart. */
export function seedFaultDraws(seed: number): number {
  // murmur3's finaliser: without it, seeds 1, 2, 3 would all draw tiny numbers first.
  let h = seed >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return (h % (FAULT_DRAW_MODULUS - 1)) + 1;
}

/** The next state, and the draw it makes: a number between 0 and 1, never either. */
export function nextFaultDraw(state: number): { state: number; draw: number } {
  const next = (state * FAULT_DRAW_MULTIPLIER) % FAULT_DRAW_MODULUS;
  return { state: next, draw: next / FAULT_DRAW_MODULUS };
}
