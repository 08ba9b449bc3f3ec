import type { StateOptions } from '../core/openState.ts';

/** Why an option cannot be taken, named as the caller gave it. */
export class StateOptionsError extends Error {
  override readonly name = 'StateOptionsError';
}

function wholeNumber(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= min)) {
    throw new StateOptionsError(`${name} is ${String(value)}: give a whole number of at least ${min}.`);
  }
}

/**
 * Checks the options both backends take, so that they accept and refuse the same things (the keys
 * are checked by each backend's key ring, alike: keyEntry.ts).
 */
export function checkStateOptions(options: Pick<StateOptions, 'requestLogSize' | 'maxAnonymousBuckets' | 'ban' | 'redis' | 'startState' | 'ids'>): void {
  wholeNumber('requestLogSize', options.requestLogSize, 0);
  wholeNumber('maxAnonymousBuckets', options.maxAnonymousBuckets, 1);
  wholeNumber('ban.threshold', options.ban?.threshold, 1);
  wholeNumber('ban.seconds', options.ban?.seconds, 1);
  if (options.redis && options.startState) throw new StateOptionsError('A start state (a state file) cannot be used with Redis: Redis holds the state and keeps it across restarts. Leave out one of them.');
  if (options.redis && options.maxAnonymousBuckets !== undefined) throw new StateOptionsError('maxAnonymousBuckets applies in memory only: on Redis the buckets nobody uses expire by themselves. Leave it out with Redis.');
  if (options.redis && options.ids) throw new StateOptionsError('An id journal (a state file) cannot be used with Redis: Redis keeps the id sequence. Leave out one of them.');
}

