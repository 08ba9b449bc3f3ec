import { describe, expect, it } from 'vitest';
import { keptPart, RetentionBudget, unreadablePart } from './retention.ts';
import { responseOf } from './transport.ts';

const body = (size: number, fill = 'a') => responseOf(200, { 'content-type': 'application/json' }, fill.repeat(size));

describe('RetentionBudget', () => {
  it('keeps answers whole while the run\'s budget lasts, then only the start of each large one, saying why', () => {
    const budget = new RetentionBudget(100_000);
    expect(budget.keep(body(60_000), false)).toEqual({ answer: body(60_000) });
    const cut = budget.keep(body(60_000), false);
    expect(cut.answer.bytes).toHaveLength(keptPart);
    expect(cut.answer.body).toHaveLength(keptPart);
    expect(cut.answer.truncated).toBeUndefined();
    expect(cut.keptInPart).toMatch(/already kept 0 MiB of answers' bodies, its own budget, so only this body's first 8 KiB \(of 60000 bytes\) were kept, and it is not judged/);
  });

  it('always keeps a small answer whole', () => {
    const budget = new RetentionBudget(10);
    expect(budget.keep(body(keptPart), false).keptInPart).toBeUndefined();
  });

  it('keeps the start of an unreadable answer (too large or unfinished), which its marks already say', () => {
    const budget = new RetentionBudget();
    const tooLarge = budget.keep({ ...body(unreadablePart * 4), truncated: true }, false);
    expect([tooLarge.answer.bytes.length, tooLarge.answer.truncated, tooLarge.keptInPart]).toEqual([unreadablePart, true, undefined]);
    expect(budget.keep(body(unreadablePart * 2), true).answer.bytes).toHaveLength(unreadablePart);
  });

  it('keeps text of its own for a start, decoded from the bytes kept (a character cut in two shows as U+FFFD)', () => {
    const budget = new RetentionBudget(0);
    const kept = budget.keep(body(keptPart, 'é'), false);
    expect(kept.answer.body.endsWith('é')).toBe(true);
    const odd = budget.keep(responseOf(200, {}, `a${'é'.repeat(keptPart)}`), false);
    expect(odd.answer.body.endsWith('\uFFFD')).toBe(true);
  });
});
