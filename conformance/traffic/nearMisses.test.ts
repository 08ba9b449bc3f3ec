import { describe, expect, it } from 'vitest';
import { profileHeaders } from './clientProfiles.ts';
import { describeEdit, editsOf, idNearMisses, keyNearMisses, schemeSpellings, statusNearMisses, wildcardsOf } from './nearMisses.ts';

describe('editsOf: one edit of a value at its start, middle and end', () => {
  it('changes, adds, removes and flips the case of one character at each position, none equal to the value', () => {
    const edits = editsOf('demo-pro', 'key');
    expect(Object.fromEntries(edits.map((e) => [e.kind, e.value]))).toMatchObject({
      'key/change/start': 'eemo-pro',
      'key/change/middle': 'demoxpro',
      'key/change/end': 'demo-prp',
      'key/add/end': 'demo-prop',
      'key/remove/start': 'emo-pro',
      'key/remove/end': 'demo-pr',
      'key/case/start': 'Demo-pro',
      'key/case/end': 'demo-prO',
    });
    expect(edits.every((e) => e.value !== 'demo-pro')).toBe(true);
    expect(new Set(edits.map((e) => e.value)).size).toBe(edits.length);
  });

  it('keeps a changed character of its kind: a digit for a digit, a capital for a capital', () => {
    expect(editsOf('Kx9', 'k').find((e) => e.kind === 'k/change/end')?.value).toBe('Kx0');
    expect(editsOf('Kx9', 'k').find((e) => e.kind === 'k/change/start')?.value).toBe('Lx9');
  });

  it('gives a one-character value each edit once, and no case edit to a value without letters', () => {
    const edits = editsOf('7', 'k');
    expect(new Set(edits.map((e) => e.value)).size).toBe(edits.length);
    expect(edits.some((e) => e.kind.includes('case'))).toBe(false);
  });
});

describe('wildcardsOf: the value as a pattern that matches it', () => {
  it('puts the any-character and any-run wildcards of SQL LIKE, a glob and a regular expression in the middle and the second half', () => {
    expect(Object.fromEntries(wildcardsOf('demo-pro', 'key').map((e) => [e.kind, e.value]))).toEqual({
      'key/wildcard/like-one': 'demo_pro',
      'key/wildcard/like-run': 'demo%',
      'key/wildcard/glob-one': 'demo?pro',
      'key/wildcard/glob-run': 'demo*',
      'key/wildcard/regex-one': 'demo.pro',
      'key/wildcard/regex-run': 'demo.*',
    });
  });

  it('gives a one-character value none, and names each in words', () => {
    expect(wildcardsOf('7', 'k')).toEqual([]);
    expect(describeEdit('key/wildcard/like-one')).toBe('its middle character replaced by SQL LIKE\'s any-character wildcard "_"');
    expect(describeEdit('key/wildcard/glob-run')).toBe('its second half replaced by a glob\'s any-run wildcard "*"');
  });
});

describe('keyNearMisses', () => {
  it('puts each edit under the scheme spelled as asked, and the whole key among other words', () => {
    const misses = keyNearMisses('demo-pro', [], 'BEARER ');
    expect(misses.find((m) => m.kind === 'key/change/end')?.value).toBe('BEARER demo-prp');
    expect(misses.find((m) => m.kind === 'key/wildcard/like-run')?.value).toBe('BEARER demo%');
    expect(misses.filter((m) => !m.kind.match(/change|add|remove|case|wildcard/)).map((m) => [m.kind, m.value])).toEqual([
      ['key/word-after', 'BEARER demo-pro x'],
      ['key/word-before', 'BEARER x demo-pro'],
      ['key/alone', 'demo-pro'],
      ['key/other-scheme', 'Token demo-pro'],
      ['key/glued', 'Bearerdemo-pro'],
      ['key/scheme-only', 'BEARER'],
      ['key/quoted', 'BEARER "demo-pro"'],
      ['key/second-credentials', 'BEARER x, BEARER demo-pro'],
    ]);
  });

  it('shows an edited key by its name and the edit, never its characters, and with no `$` a shell would expand', () => {
    const miss = keyNearMisses('s3cret-key-value')[0]!;
    expect(miss.shown).toBe('Bearer <PETS_API_KEY, one character changed at the start>');
    for (const m of keyNearMisses('s3cret-key-value')) if (m.shown !== undefined) expect(m.shown).not.toMatch(/s3cret|\$/);
  });

  it('leaves out an edit that is another key of the run', () => {
    expect(keyNearMisses('demo-pro', ['demo-pr']).some((m) => m.value.endsWith(' demo-pr'))).toBe(false);
  });

  it('spells the scheme the five ways clients do', () => {
    expect(schemeSpellings).toEqual(['Bearer ', 'bearer ', 'BEARER ', 'Bearer  ', 'Bearer\t']);
  });
});

describe('statusNearMisses', () => {
  it('gives a prefix, a cut, an extension, other cases, padding, lists, an accent and a NUL, none a PetStatus', () => {
    const misses = statusNearMisses('available', ['available', 'pending', 'sold']);
    expect(misses.map((m) => m.value)).toEqual(['avail', 'availabl', 'availables', 'Available', 'AVAILABLE', ' available', 'available ', 'available,pending', 'available, pending', 'availablé', 'available\u0000']);
    expect(statusNearMisses('sold', ['available', 'pending', 'sold']).every((m) => !['available', 'pending', 'sold'].includes(m.value))).toBe(true);
  });
});

describe('idNearMisses', () => {
  it('gives ids next to one in digits and in bits, each an int64, and the same id with a leading zero', () => {
    expect(Object.fromEntries(idNearMisses(1174n).map((m) => [m.kind, m.value]))).toEqual({
      'id/next': '1175',
      'id/previous': '1173',
      'id/bit-8': '1430',
      'id/bit-16': '66710',
      'id/times-ten': '11740',
      'id/past-2^32': '4294968470',
      'id/past-2^53': '9007199254742166',
      'id/leading-zero': '01174',
    });
    expect(BigInt(idNearMisses(1174n).find((m) => m.kind === 'id/bit-8')!.value) & 0xffn).toBe(1174n & 0xffn);
  });

  it('gives nothing outside int64, either way', () => {
    const max = 2n ** 63n - 1n;
    expect(idNearMisses(max).every((m) => m.kind === 'id/leading-zero' || BigInt(m.value) <= max)).toBe(true);
    expect(idNearMisses(-max - 1n).every((m) => m.kind === 'id/leading-zero' || BigInt(m.value) >= -max - 1n)).toBe(true);
  });

  it('gives a negative id\'s neighbours as the int64s they are, and its leading zero after the sign', () => {
    expect(Object.fromEntries(idNearMisses(-60n).map((m) => [m.kind, m.value]))).toEqual({
      'id/next': '-59',
      'id/previous': '-61',
      'id/bit-8': '-316',
      'id/bit-16': '-65596',
      'id/times-ten': '-600',
      'id/past-2^32': '4294967236',
      'id/past-2^53': '9007199254740932',
      'id/leading-zero': '-060',
    });
    expect(idNearMisses(0n).find((m) => m.kind === 'id/previous')?.value).toBe('-1');
  });
});

describe('profileHeaders', () => {
  it('keeps codings the suite can decode, drops Connection, and puts the suite\'s product after the client\'s', () => {
    const headers = profileHeaders([['User-Agent', 'axios/1.7.2'], ['Accept-Encoding', 'gzip, compress, deflate, br, zstd'], ['Connection', 'keep-alive'], ['X-Request-Id', 'r1']], ['gzip', 'deflate', 'br'], 'pets-conformance/1.0.0');
    expect(headers).toEqual({ 'User-Agent': 'axios/1.7.2 pets-conformance/1.0.0', 'Accept-Encoding': 'gzip, deflate, br', 'X-Request-Id': 'r1' });
  });
});
