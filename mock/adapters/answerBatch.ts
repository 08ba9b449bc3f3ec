// The pets-mock server's answers, written together once the event loop has read every request
// ready in its turn. Each write to a socket over loopback also wakes the client's thread; written
// one by one, tens of microseconds apart, every answer wakes a client that had gone back to sleep,
// and on a virtual machine that wake can cost more than the mock's own work (docs/performance.md
// measures it). Written back to back, the first wakes the client and the rest find it running.
// Each answer waits at most for the rest of its turn: the requests read with it, never a timer.
import type { ServerResponse } from 'node:http';
import { realTimers } from '../state/realTimers.ts';

/** Ends responses whose head is written (writeHead) at the end of the event loop's turn, in the order given. */
export class AnswerBatch {
  #responses: ServerResponse[] = [];
  #bodies: (string | undefined)[] = [];

  constructor(
    /** Where an answer that cannot be ended is told (the host's log). */
    private readonly log: { error(fields: object, message: string): void },
    /** Runs its callback once the I/O ready in this turn is handled: Node's setImmediate, the real one. */
    private readonly afterTurn: (callback: () => void) => void = realTimers.setImmediate,
  ) {}

  /** Ends `res` with `body` after this turn. Its head is written already: Node holds it and sends it with the body. */
  end(res: ServerResponse, body: string | undefined): void {
    this.#responses.push(res);
    this.#bodies.push(body);
    if (this.#responses.length === 1) this.afterTurn(this.#flush);
  }

  /**
   * Ends every answer waiting now, before the turn is over: for what cuts a connection in this
   * turn (a `reset` fault rule), so that the answers given before it on that connection (pipelined)
   * go out first, as they would have unbatched.
   */
  flushNow(): void {
    this.#flush();
  }

  readonly #flush = (): void => {
    const responses = this.#responses;
    const bodies = this.#bodies;
    this.#responses = [];
    this.#bodies = [];
    for (let i = 0; i < responses.length; i++) {
      const res = responses[i]!;
      // The client left, or the connection was cut (a second shutdown signal), while the answer waited.
      if (res.destroyed) continue;
      try {
        res.end(bodies[i]);
      } catch (error) {
        // Its head is set (headersSent): no Error answer can replace it, so the connection is cut.
        this.log.error({ err: error }, 'unexpected error');
        res.destroy();
      }
    }
  };
}
