import type { Socket } from 'node:net';

/** How long a closing connection waits for more of what the client still sends. */
const LINGER_MS = 2000;

/**
 * Closes a connection the way RFC 9112 (9.6) asks: half-close first, keep reading, close fully
 * once the client has closed too (or after LINGER_MS). Node would otherwise close the socket
 * while a client is still uploading (a body over the limit answered with 413 before it was read),
 * and closing with unread data makes the kernel send a reset, which can destroy the 413 before the
 * client reads it. Node calls `destroySoon()` after the last answer on a `Connection: close`
 * connection; this replaces it on one socket. A client that keeps sending is read for as long as it
 * sends (bounded by the request timeout, 300 s); one that stops is closed after `lingerMs` of quiet.
 */
export function lingerOnClose(socket: Socket, lingerMs = LINGER_MS): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    if (this.readableEnded || this.destroyed) return void this.destroy();
    // What still arrives is read and dropped (the HTTP parser reads it as the rest of the body);
    // the connection closes once the client closes its side, or sends nothing for `lingerMs`.
    this.setTimeout(lingerMs, () => this.destroy());
    this.once('end', () => this.destroy());
  };
}
