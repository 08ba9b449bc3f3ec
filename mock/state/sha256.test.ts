import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyDigest } from './keyEntry.ts';
import { portableSha256Base64, sha256Base64 } from './sha256.ts';

const texts = ['', 'demo-free', 'demo-enterprise', 'clé-été', 'ключ', '鍵🔑', 'a'.repeat(1000), 'lone \ud800 surrogate', '{"name":"Milo","categoryId":2}'];

describe('sha256Base64', () => {
  it.each(texts)('digests %j as node:crypto does, on Node and without it', (text) => {
    const node = hash('sha256', text, 'base64');
    expect(sha256Base64(text)).toBe(node);
    expect(portableSha256Base64(text)).toBe(node);
  });

  it.each(texts)('digests the UTF-8 bytes of %j as the text itself, on Node and without it', (text) => {
    const bytes = new TextEncoder().encode(text);
    expect(sha256Base64(bytes)).toBe(hash('sha256', bytes, 'base64'));
    expect(portableSha256Base64(bytes)).toBe(hash('sha256', bytes, 'base64'));
    // A lone surrogate is no UTF-8: its text and its encoder's bytes (U+FFFD) are different bodies.
    if (!/\p{Cs}/u.test(text)) expect(sha256Base64(bytes)).toBe(sha256Base64(text));
  });

  it('is what keyDigest stores a key by', () => {
    expect(keyDigest('demo-pro')).toBe(hash('sha256', 'demo-pro', 'base64'));
  });
});
