import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AnswerBatch } from './answerBatch.ts';

/** A response recording what is done to it, in `ended` (shared, to show the order). */
function response(ended: string[], name: string, { destroyed = false, refuses = false } = {}) {
  const res = {
    destroyed,
    end(body?: string) {
      if (refuses) throw new Error('write after end');
      ended.push(`${name}:${body ?? ''}`);
    },
    destroy() {
      this.destroyed = true;
      ended.push(`${name}:cut`);
    },
  };
  return res as typeof res & ServerResponse;
}

/** A batch whose turn ends when the test says: `endTurn()` runs what it scheduled. */
function batchWithTurns(errors: unknown[] = []) {
  const scheduled: (() => void)[] = [];
  const batch = new AnswerBatch({ error: (fields) => errors.push(fields) }, (callback) => scheduled.push(callback));
  return { batch, scheduled, endTurn: () => scheduled.splice(0).forEach((callback) => callback()) };
}

describe('AnswerBatch', () => {
  it('ends the answers given in one turn together once it ends, in the order given, scheduling one flush', () => {
    const ended: string[] = [];
    const { batch, scheduled, endTurn } = batchWithTurns();
    batch.end(response(ended, 'a'), '[1]');
    batch.end(response(ended, 'b'), undefined);
    batch.end(response(ended, 'c'), '[3]');
    expect(ended).toEqual([]);
    expect(scheduled).toHaveLength(1);
    endTurn();
    expect(ended).toEqual(['a:[1]', 'b:', 'c:[3]']);
  });

  it('schedules the next turn for an answer given after a flush', () => {
    const ended: string[] = [];
    const { batch, scheduled, endTurn } = batchWithTurns();
    batch.end(response(ended, 'a'), 'x');
    endTurn();
    batch.end(response(ended, 'b'), 'y');
    expect(scheduled).toHaveLength(1);
    endTurn();
    expect(ended).toEqual(['a:x', 'b:y']);
  });

  it('leaves an answer whose connection was cut while it waited, and ends the rest', () => {
    const ended: string[] = [];
    const { batch, endTurn } = batchWithTurns();
    batch.end(response(ended, 'gone', { destroyed: true }), 'x');
    batch.end(response(ended, 'here'), 'y');
    endTurn();
    expect(ended).toEqual(['here:y']);
  });

  it('cuts the connection of an answer Node refuses to end, logs why, and ends the others', () => {
    const ended: string[] = [];
    const errors: unknown[] = [];
    const { batch, endTurn } = batchWithTurns(errors);
    batch.end(response(ended, 'refused', { refuses: true }), 'x');
    batch.end(response(ended, 'fine'), 'y');
    endTurn();
    expect(ended).toEqual(['refused:cut', 'fine:y']);
    expect(errors).toHaveLength(1);
  });
});
