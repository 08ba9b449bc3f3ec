import { describe, expect, it } from 'vitest';
import { acceptsCoding, parseAcceptEncoding, parseContentEncoding } from './contentCodings.ts';
import { parseCacheControl } from './cacheDirectives.ts';
import { parseEntityTag, parseTagList, weakMatch } from './entityTag.ts';
import { forbiddenCharacters, isToken, listMembers, parseParameters } from './fieldSyntax.ts';
import { parseLinks } from './linkValues.ts';
import { parseMediaType } from './mediaType.ts';

describe('field-value grammar (RFC 9110, 5.5, 5.6)', () => {
  it('takes tokens of tchar and nothing else', () => {
    expect(['GET', 'x-ratelimit-limit', "a!#$%&'*+-.^_`|~9"].every(isToken)).toBe(true);
    expect(['', 'a b', 'a,b', 'a"b', 'é', 'a/b'].some(isToken)).toBe(false);
  });

  it('splits a list at commas outside quoted strings and <...>, keeping empty members for the caller to report', () => {
    expect(listMembers('a, "b,c" ,d')).toEqual(['a', '"b,c"', 'd']);
    expect(listMembers('<a,b>; rel=x, <c>', { angleBrackets: true })).toEqual(['<a,b>; rel=x', '<c>']);
    expect(listMembers('a,,b')).toEqual(['a', '', 'b']);
    expect(listMembers('"never ends')).toBeUndefined();
  });

  it('reads parameters as token or quoted-string values, names lower-cased, no space around "=" unless BWS is allowed', () => {
    expect(parseParameters('; Charset="utf-8" ;q=1')).toEqual([{ name: 'charset', value: 'utf-8', quoted: true }, { name: 'q', value: '1', quoted: false }]);
    expect(parseParameters('; charset = utf-8')).toBeUndefined();
    expect(parseParameters('; rel = "next"', { bws: true })).toEqual([{ name: 'rel', value: 'next', quoted: true }]);
    expect(parseParameters('; charset=utf 8')).toBeUndefined();
  });

  it('names CR, LF and NUL apart from the other controls, and lets HTAB and obs-text through', () => {
    expect(forbiddenCharacters('a\r\nb\0')).toEqual({ dangerous: ['%x0D', '%x0A', '%x00'], controls: [] });
    expect(forbiddenCharacters('a\x01b\x7f')).toEqual({ dangerous: [], controls: ['%x01', '%x7F'] });
    expect(forbiddenCharacters('a\tb \xe9')).toEqual({ dangerous: [], controls: [] });
  });
});

describe('media-type (RFC 9110, 8.3.1)', () => {
  it('reads type, subtype and parameters, case-folded', () => {
    expect(parseMediaType('Application/JSON; charset=UTF-8')).toEqual({ type: 'application', subtype: 'json', parameters: [{ name: 'charset', value: 'UTF-8', quoted: false }] });
  });

  it('refuses what is not type/subtype, a broken parameter, and two charsets', () => {
    expect(parseMediaType('json')).toEqual({ fault: expect.stringContaining('is not type "/" subtype') });
    expect(parseMediaType('application/json; charset')).toEqual({ fault: expect.stringContaining('its parameters') });
    expect(parseMediaType('application/json;charset=utf-8;charset=latin1')).toEqual({ fault: 'it names the charset twice' });
  });
});

describe('entity-tag (RFC 9110, 8.8.3)', () => {
  it('reads strong and weak tags, and compares them weakly', () => {
    expect(parseEntityTag('"abc"')).toEqual({ weak: false, opaque: '"abc"' });
    expect(parseEntityTag('W/"abc"')).toEqual({ weak: true, opaque: '"abc"' });
    expect(weakMatch(parseEntityTag('W/"a"')!, parseEntityTag('"a"')!)).toBe(true);
  });

  it('refuses an unquoted tag, a lower-case w/, and a space inside', () => {
    expect([parseEntityTag('abc'), parseEntityTag('w/"a"'), parseEntityTag('"a b"')]).toEqual([undefined, undefined, undefined]);
  });

  it('reads If-None-Match as * or a list of tags', () => {
    expect(parseTagList('*')).toBe('*');
    expect(parseTagList('"a", W/"b"')).toEqual([{ weak: false, opaque: '"a"' }, { weak: true, opaque: '"b"' }]);
    expect(parseTagList('"a", b')).toBeUndefined();
  });
});

describe('Cache-Control (RFC 9111, 5.2)', () => {
  it('reads directives, names lower-cased, arguments unquoted', () => {
    expect(parseCacheControl('Private="x-a", max-age=60').directives).toEqual([{ name: 'private', argument: 'x-a', quoted: true }, { name: 'max-age', argument: '60', quoted: false }]);
  });

  it('faults a broken directive, max-age quoted or not delta-seconds; doubts an argument where none is allowed', () => {
    expect(parseCacheControl('max-age=60 s').faults).toHaveLength(1);
    expect(parseCacheControl('max-age="60"').faults[0]).toContain('a sender MUST NOT generate the quoted-string form');
    expect(parseCacheControl('s-maxage=-1').faults[0]).toContain('takes delta-seconds');
    expect(parseCacheControl('no-store=1').doubts[0]).toContain('no-store takes no argument');
  });
});

describe('Link (RFC 8288, 3)', () => {
  it('reads links with their parameters', () => {
    expect(parseLinks('<https://example.com/a>; rel="sunset"; type="text/html", </b>;rel=next')).toEqual({
      links: [
        { target: 'https://example.com/a', params: [{ name: 'rel', value: 'sunset', quoted: true }, { name: 'type', value: 'text/html', quoted: true }] },
        { target: '/b', params: [{ name: 'rel', value: 'next', quoted: false }] },
      ],
    });
  });

  it('refuses a link without <>, without rel, with rel twice, or with a target that is no URI-reference', () => {
    expect(parseLinks('https://x; rel=a')).toEqual({ fault: expect.stringContaining('does not start with <URI-Reference>') });
    expect(parseLinks('</a>; type=x')).toEqual({ fault: expect.stringContaining('no rel parameter') });
    expect(parseLinks('</a>; rel=x; rel=y')).toEqual({ fault: expect.stringContaining('rel 2 times') });
    expect(parseLinks('</a b>; rel=x')).toEqual({ fault: expect.stringContaining('no URI-reference') });
  });
});

describe('content codings (RFC 9110, 8.4, 12.5.3)', () => {
  it('reads Content-Encoding as lower-case codings, x-gzip as gzip', () => {
    expect(parseContentEncoding('GZIP, x-gzip')).toEqual(['gzip', 'gzip']);
    expect(parseContentEncoding('gzip br')).toBeUndefined();
  });

  it('accepts a listed coding unless q=0, an unlisted one only through *, and none for an empty field', () => {
    const accept = (value: string, coding: string) => acceptsCoding(parseAcceptEncoding(value)!, coding);
    expect(accept('gzip, br;q=0.5', 'br')).toBe(true);
    expect(accept('gzip;q=0, *', 'gzip')).toBe(false);
    expect(accept('identity', 'gzip')).toBe(false);
    expect(accept('*;q=0.1', 'br')).toBe(true);
    expect(accept('', 'gzip')).toBe(false);
  });
});
