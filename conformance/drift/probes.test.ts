import { describe, expect, it } from 'vitest';
import { categoryIdRangeChoice, keylessUnlistedChoice, listOrderChoice } from './probes.ts';

describe('what the probes\' answers show', () => {
  it('reads the categoryId range from the answers to 0 and -1: none below, from 1, from 0, or a range a profile cannot hold', () => {
    expect(categoryIdRangeChoice(201, 201)?.value).toEqual({});
    expect(categoryIdRangeChoice(400, 400)?.value).toEqual({ minimum: 1 });
    expect(categoryIdRangeChoice(201, 422)?.value).toEqual({ minimum: 0 });
    expect(categoryIdRangeChoice(400, 201)?.value).toMatch(/^other: categoryId 0 is refused \(400\), -1 is taken \(201\)/);
  });

  it('shows no categoryId range when an answer was no create and no refusal of the body (no answer, a 401, a 429, a 5xx)', () => {
    expect(categoryIdRangeChoice(undefined, 201)).toBeUndefined();
    expect(categoryIdRangeChoice(429, 201)).toBeUndefined();
    expect(categoryIdRangeChoice(201, 500)).toBeUndefined();
  });

  it('reads whether the key is asked before routing from the keyless answers to an unserved method and path', () => {
    expect(keylessUnlistedChoice(401, 401)?.value).toBe('unauthorized');
    expect(keylessUnlistedChoice(405, 404)?.value).toBe('routed');
    expect(keylessUnlistedChoice(401, 404)?.value).toMatch(/^other: without a key, DELETE \/pets answers 401 and an unknown path 404/);
    expect(keylessUnlistedChoice(429, 404)).toBeUndefined();
  });

  it('reads the list order from two pets created in turn only when their ids rise with creation, and an order that changes between reads as unstable', () => {
    expect(listOrderChoice(['8', '7', '3'], ['8', '7', '3'], '7', '8')?.value).toBe('newest-first');
    expect(listOrderChoice(['3', '7', '8'], undefined, '7', '8')?.value).toBe('oldest-first');
    // Ids given at random (B's below A's): an order by id says nothing of creation.
    expect(listOrderChoice(['90', '12'], ['90', '12'], '90', '12')).toBeUndefined();
    expect(listOrderChoice(['8', '7'], ['7', '8'], '7', '8')?.value).toBe('unstable');
    expect(listOrderChoice(['8', '1'], undefined, '7', '8')).toBeUndefined();
  });
});
