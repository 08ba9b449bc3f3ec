const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer;

/**
 * How many bytes `text` takes in UTF-8, for Content-Length, without encoding it (a page of pets is
 * read far more often than it changes). A lone surrogate counts as U+FFFD, as TextEncoder writes it.
 * Node counts natively (a lone surrogate as U+FFFD's three bytes, too); a browser has no Buffer.
 */
export function utf8Length(text: string): number {
  return nodeBuffer ? nodeBuffer.byteLength(text, 'utf8') : countUtf8(text);
}

/** utf8Length without Node: the code units counted one by one. */
export function countUtf8(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
