import { describe, expect, it } from 'vitest';
import { categoryIdRangeChoice, etagChoice, keylessUnlistedChoice, listOrderChoice } from './probes.ts';

describe('what the probes\' answers show', () => {
  it('reads the categoryId range from the answers to 0 and -1: none below, from 1, from 0, or a range a profile cannot hold', () => {
    expect(categoryIdRangeChoice(201, 201)?.value).toEqual({});
    expect(categoryIdRangeChoice(400, 400)?.value).toEqual({ minimum: 1 });
    expect(categoryIdRangeChoice(201, 422)?.value).toEqual({ minimum: 0 });
    expect(categoryIdRangeChoice(400, 201)?.value).toMatch(/^other: categoryId 0 is refused \(400\), -1 is taken \(201\)/);
  });

  it('reads the ends past 2^53 - 1: taken exactly is no bound, refused is the bound 9007199254740991 at that end, taken rounded a value a profile cannot hold', () => {
    const exact = { above: { status: 201, answered: '9007199254740993' }, below: { status: 201, answered: '-9007199254740993' } };
    expect(categoryIdRangeChoice(201, 201, exact)).toEqual({ value: {}, shown: 'categoryId 0 is taken (201), -1 is taken (201), 9007199254740993 is taken (201, kept exactly), -9007199254740993 is taken (201, kept exactly)' });
    expect(categoryIdRangeChoice(201, 201, { above: { status: 400 }, below: { status: 400 } })?.value).toEqual({ minimum: -9007199254740991, maximum: 9007199254740991 });
    // Below a minimum already shown, the negative end says nothing more.
    expect(categoryIdRangeChoice(400, 400, { above: { status: 422 }, below: { status: 400 } })?.value).toEqual({ minimum: 1, maximum: 9007199254740991 });
    expect(categoryIdRangeChoice(201, 201, { above: { status: 201, answered: '9007199254740992' } })?.value).toMatch(/^other: .*9007199254740993 is taken \(201, answered as 9007199254740992\)/);
    // No answer, a 429 or a 5xx at an end says nothing of it.
    expect(categoryIdRangeChoice(201, 201, { above: { status: 429 }, below: { status: 500 } })?.value).toEqual({});
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

  it('reads ETag from a read and the same read with its tag in If-None-Match: none, conditional (304), or sent (200); nothing from another answer', () => {
    const tagged = { status: 200, headers: { etag: 'W/"a"' } };
    expect(etagChoice({ status: 200, headers: {} }, undefined)?.value).toBeNull();
    expect(etagChoice(tagged, { status: 304 })?.value).toBe('conditional');
    expect(etagChoice(tagged, { status: 200 })?.value).toBe('sent');
    expect(etagChoice(tagged, { status: 429 })).toBeUndefined();
    expect(etagChoice({ status: 404, headers: {} }, undefined)).toBeUndefined();
  });
});
