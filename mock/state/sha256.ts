import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

// SHA-256 without a static `node:crypto` import, so the state's modules bundle for a browser (the
// mock core inside MSW's setupWorker). On Node (>= 20.16, below the package's engines) it is
// node:crypto's hash, reached through process.getBuiltinModule; elsewhere @noble/hashes, whose
// digest is the same. Both stay synchronous: a key's digest is taken where no await may come.

type NodeCrypto = typeof import('node:crypto');

const nodeCrypto = globalThis.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

/** The SHA-256 digest of a text's UTF-8 bytes (or of bytes), base64 with padding: node's `hash('sha256', text, 'base64')`. */
export function sha256Base64(text: string | Uint8Array): string {
  return nodeCrypto ? nodeCrypto.hash('sha256', text, 'base64') : portableSha256Base64(text);
}

/** The same digest without node:crypto: what a browser runs (exported so the tests hold both equal). */
export function portableSha256Base64(text: string | Uint8Array): string {
  const digest = sha256(typeof text === 'string' ? utf8ToBytes(text) : text);
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}
