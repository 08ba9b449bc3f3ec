import { describe, expect, it } from 'vitest';
import { parsePrefer } from './parsePrefer.ts';

describe('parsePrefer', () => {
  it('reads token=value preferences', () => {
    expect(parsePrefer('code=404, dynamic=true')).toEqual(new Map([['code', '404'], ['dynamic', 'true']]));
  });

  it('reads quoted values, bare tokens and ignores parameters', () => {
    expect(parsePrefer('example="not found", respond-async; wait=5, delay=100')).toEqual(new Map([['example', 'not found'], ['respond-async', ''], ['delay', '100']]));
  });

  it('keeps commas, semicolons and escaped quotes inside a quoted value', () => {
    expect(parsePrefer('example="x,y", seed="a;b", code=201')).toEqual(new Map([['example', 'x,y'], ['seed', 'a;b'], ['code', '201']]));
    expect(parsePrefer('example="say \\"hi, there\\""; p=1, dynamic=true')).toEqual(new Map([['example', 'say "hi, there"'], ['dynamic', 'true']]));
  });

  it('joins several headers and keeps the first occurrence', () => {
    expect(parsePrefer(['code=404', 'code=500, seed=7'])).toEqual(new Map([['code', '404'], ['seed', '7']]));
  });

  it('treats names case-insensitively and skips what it cannot read', () => {
    expect(parsePrefer('Code=429, =oops, delay')).toEqual(new Map([['code', '429'], ['delay', '']]));
    expect(parsePrefer(undefined).size).toBe(0);
  });
});
