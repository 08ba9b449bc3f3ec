import { InvalidArgumentError } from 'commander';

/** A commander argument parser for whole numbers of at least `min`, written as plain digits. */
export function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`Give a whole number of ${min} or more.`);
    return n;
  };
}
