import { describe, expect, it } from 'vitest';
import { setCredential } from './setCredential.ts';

const keyOf = (which: 'key' | 'key2') => (which === 'key' ? 'K1' : 'K2');
const withCredential = (auth: Parameters<typeof setCredential>[1], headers: Record<string, string> = {}) => {
  const out = { ...headers };
  setCredential(out, auth, keyOf);
  return out;
};

describe('setCredential', () => {
  it('sends each of the run\'s keys as a Bearer token', () => {
    expect(withCredential('key')).toEqual({ authorization: 'Bearer K1' });
    expect(withCredential('key2')).toEqual({ authorization: 'Bearer K2' });
  });
  it('sends nothing for a keyless request', () => {
    expect(withCredential('none', { accept: 'application/json' })).toEqual({ accept: 'application/json' });
  });
  it('sends a key spelled another way under its own header name alone', () => {
    expect(withCredential({ key: 'key2', headerName: 'AUTHORIZATION', scheme: 'bearer' }, { Authorization: 'x' })).toEqual({ AUTHORIZATION: 'bearer K2' });
  });
  it('sends a given Authorization as is', () => {
    expect(withCredential({ authorization: 'Basic abc' })).toEqual({ authorization: 'Basic abc' });
  });
});
