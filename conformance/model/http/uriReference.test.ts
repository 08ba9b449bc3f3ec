import { describe, expect, it } from 'vitest';
import { uriReferenceFault } from './uriReference.ts';

describe('URI-reference (RFC 3986, 4.1)', () => {
  it('takes absolute URIs, paths, queries, fragments, IP literals and percent-encoding', () => {
    for (const text of ['https://api.example.com:8443/v1/pets/7?x=1#top', '/v1/pets/7', 'pets/7', '?a=b', '#f', '//h/p', 'http://[::1]:80/', '/caf%C3%A9', "/a;b=c,d!$&'()*+@:"]) {
      expect(uriReferenceFault(text), text).toBeUndefined();
    }
  });

  it('names what breaks it: a space, a raw non-ASCII character, a stray %, a bad scheme or port', () => {
    expect(uriReferenceFault('/pets/a b')).toContain('its path "/pets/a b"');
    expect(uriReferenceFault('/café')).toContain('"é"');
    expect(uriReferenceFault('/a%zz')).toContain('"%"');
    expect(uriReferenceFault('1http://x/')).toContain('its scheme');
    expect(uriReferenceFault('http://x:8o/')).toContain('its port');
    expect(uriReferenceFault('/a?b c')).toContain('its query');
  });
});
