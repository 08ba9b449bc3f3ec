import { describe, expect, it } from 'vitest';
import { parseChallenges } from './challenges.ts';

describe('WWW-Authenticate challenges (RFC 9110, 11.6.1)', () => {
  it('reads challenges with auth-params, a token68, and several challenges in one value', () => {
    expect(parseChallenges('Bearer realm="pets", error="invalid_token", Basic realm=x, Negotiate abc+/=')).toEqual({
      challenges: [
        { scheme: 'Bearer', params: [{ name: 'realm', value: 'pets' }, { name: 'error', value: 'invalid_token' }] },
        { scheme: 'Basic', params: [{ name: 'realm', value: 'x' }] },
        { scheme: 'Negotiate', token68: 'abc+/=', params: [] },
      ],
    });
    expect(parseChallenges('Bearer')).toEqual({ challenges: [{ scheme: 'Bearer', params: [] }] });
  });

  it('refuses a parameter before any scheme, a value with spaces unquoted, and an empty value', () => {
    expect(parseChallenges('realm="x"')).toEqual({ fault: expect.stringContaining('belongs to no challenge') });
    expect(parseChallenges('Bearer realm=my pets')).toEqual({ fault: expect.stringContaining('neither a scheme with a token68') });
    expect(parseChallenges('')).toEqual({ fault: 'it holds no challenge' });
  });
});
