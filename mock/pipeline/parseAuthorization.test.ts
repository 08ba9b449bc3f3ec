import { describe, expect, it } from 'vitest';
import { parseAuthorization } from './parseAuthorization.ts';

describe('parseAuthorization', () => {
  it.each([
    ['Bearer demo-free', { kind: 'bearer', token: 'demo-free' }],
    ['bearer demo-free', { kind: 'bearer', token: 'demo-free' }],
    ['BEARER demo-free', { kind: 'bearer', token: 'demo-free' }],
    ['Bearer  abc.def_ghi~jkl+mno/pq==', { kind: 'bearer', token: 'abc.def_ghi~jkl+mno/pq==' }],
    [undefined, { kind: 'missing' }],
    ['', { kind: 'missing' }],
    ['Basic ZGVtbzpmcmVl', { kind: 'other-scheme', scheme: 'Basic' }],
    ['Token demo-free', { kind: 'other-scheme', scheme: 'Token' }],
    ['Bearer', { kind: 'malformed' }],
    ['Bearer "demo-free"', { kind: 'malformed' }],
    ['Bearer demo free', { kind: 'malformed' }],
    ['demo-free', { kind: 'other-scheme', scheme: 'demo-free' }],
    [': Bearer x', { kind: 'malformed' }],
  ])('reads %j', (header, expected) => {
    expect(parseAuthorization(header)).toEqual(expected);
  });
});
