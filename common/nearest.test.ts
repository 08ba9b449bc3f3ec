import { describe, expect, it } from 'vitest';
import { didYouMean, nearest } from './nearest.ts';

describe('nearest', () => {
  it('finds the same word in another case first', () => {
    expect(nearest('readonly', ['readOnly', 'reportDir'])).toBe('readOnly');
  });

  it('finds a word a typo or two away', () => {
    expect(nearest('pagnation', ['auth', 'pagination', 'status-filter'])).toBe('pagination');
    expect(nearest('baseurl', ['baseUrl', 'apiKey'])).toBe('baseUrl');
    expect(nearest('depht', ['depth', 'seed'])).toBe('depth');
  });

  it('suggests nothing for a word far from every candidate', () => {
    expect(nearest('xyz', ['auth', 'pagination'])).toBeUndefined();
    expect(didYouMean('completely-different', ['auth'])).toBe('');
  });

  it('words the suggestion for a message', () => {
    expect(didYouMean('pagnation', ['pagination'])).toBe('; did you mean "pagination"?');
  });
});
