import { beforeEach, describe, expect, it } from 'vitest';
import { judgeRateHeaders } from './judgeRateHeaders.ts';
import { ex, freshState, modelOptions, rate, resetSeq, T0, T0s } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

/** headers.reset-plausible's outcome and message for a listing that says `reset`, dated `date` when given. */
function plausible(reset: number, date?: string) {
  const listing = ex({ status: 200, headers: { ...rate(10, { reset }), ...(date === undefined ? {} : { date }) }, body: [] });
  return judgeRateHeaders([listing], freshState(), modelOptions().validators).filter((j) => j.rule === 'headers.reset-plausible').map((j) => [j.outcome, j.message]);
}

/** The IMF-fixdate `seconds` after the request left. */
const dateAfter = (seconds: number) => new Date(T0 + seconds * 1000).toUTCString();

describe('headers.reset-plausible: X-RateLimit-Reset is a Unix time in seconds, not past, at most two days ahead', () => {
  it('holds a reset a minute ahead, by the suite\'s clock and by the answer\'s Date', () => {
    expect(plausible(T0s + 60)).toEqual([['held', undefined]]);
    expect(plausible(T0s + 60, dateAfter(0))).toEqual([['held', undefined]]);
  });

  it('reads the reset on the deployment\'s own clock when its Date is far from the suite\'s (a mock moved past 5 December 2030)', () => {
    const movedS = Date.UTC(2030, 11, 5, 13) / 1000;
    expect(plausible(movedS + 60, new Date(movedS * 1000).toUTCString())).toEqual([['held', undefined]]);
  });

  it('fails a reset more than two days ahead of both clocks, naming the Date it was read against', () => {
    const [[outcome, message]] = plausible(T0s + 3 * 86_400, dateAfter(0)) as [[string, string]];
    expect(outcome).toBe('failure');
    expect(message).toBe(`GET http://api.test/v1/pets (200) says X-RateLimit-Reset ${T0s + 3 * 86_400}, more than two days ahead of its own Date (${dateAfter(0)}): not a plausible Unix time in seconds (milliseconds?).`);
    expect(plausible((T0s + 60) * 1000, dateAfter(0))[0]![0]).toBe('failure');
  });

  it('fails a reset before both clocks, and one that reads as seconds until the reset', () => {
    expect(plausible(T0s - 60, dateAfter(0))[0]![0]).toBe('failure');
    expect(plausible(60, dateAfter(0))[0]![1]).toMatch(/in the past\. It looks like seconds until the reset/);
  });
});

describe('headers.counts-down: Remaining counts down as requests are served', () => {
  const countsDown = (answers: { remaining: number; reset: number }[]) => {
    const state = freshState();
    return answers.flatMap(({ remaining, reset }) => judgeRateHeaders([ex({ status: 200, headers: rate(remaining, { reset }), body: [] })], state, modelOptions().validators)).filter((j) => j.rule === 'headers.counts-down').map((j) => j.outcome);
  };

  it('fails nine successful answers in a row that leave Remaining where it was within one window', () => {
    expect(countsDown(Array.from({ length: 9 }, () => ({ remaining: 150, reset: T0s + 60 }))).at(-1)).toBe('failure');
  });

  it('holds a sliding window that stays where it was while its Reset moves on, as at a steady rate one request ages out for each served', () => {
    expect(countsDown(Array.from({ length: 12 }, (_, i) => ({ remaining: 150, reset: T0s + 60 + i })))).not.toContain('failure');
  });
});
