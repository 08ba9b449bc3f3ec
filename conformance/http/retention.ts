// What a run keeps of each answer's body, so that its memory stays bounded whatever a deployment
// sends: an endless body, a gzip bomb, a huge list on every request. A run holds every exchange to
// the end (the passive checks and the reports read them all), so what it keeps is what it costs.
//
// Three marks say a body is not whole; each means one thing:
// - `truncated`: the deployment sent more than the suite reads (`--max-body`, after decoding): the
//   answer is unreadable, the deployment's failure (wire-format). Only its start is kept.
// - `incomplete`: the body never finished (the connection closed, the time ran out, the framing
//   broke): unreadable, the deployment's failure (wire-format). Only its start is kept.
// - `keptInPart`: the body came whole and readable, but the run had already kept `keptBodyBudget`
//   bytes of bodies, so only its start is kept: the cut is the suite's, so no rule that needs the
//   whole body judges it (never "broken JSON"), and it is not parsed.
import { bodyText, type TransportResponse } from './transport.ts';

/** Body bytes a run keeps whole, in all: far past a run against a deployment of this API (a few MB). */
export const keptBodyBudget = 16 * 1024 * 1024;
/** What is kept of a body once that budget is spent. */
export const keptPart = 8 * 1024;
/** What is kept of a body that is unreadable anyway (`truncated`, `incomplete`): enough to show what it was. */
export const unreadablePart = 64 * 1024;

/** The start of a body: fresh bytes and text of their own, so the whole is not held through them. */
function startOf(answer: TransportResponse, bytes: number): TransportResponse {
  const kept = answer.bytes.slice(0, bytes);
  return { ...answer, bytes: kept, body: bodyText(kept) };
}

/** Counts the bodies a run keeps and cuts what is past its budget. One per run. */
export class RetentionBudget {
  #kept = 0;

  constructor(readonly budget = keptBodyBudget) {}

  /**
   * The answer as the run keeps it. An unreadable one (`truncated`, or `incomplete` when given) keeps
   * its first `unreadablePart` bytes; a whole one is kept whole while the budget lasts, then its first
   * `keptPart` bytes, with `keptInPart` saying why.
   */
  keep(answer: TransportResponse, incomplete: boolean): { answer: TransportResponse; keptInPart?: string } {
    if (answer.truncated || incomplete) {
      const kept = answer.bytes.length > unreadablePart ? startOf(answer, unreadablePart) : answer;
      this.#kept += kept.bytes.length;
      return { answer: kept };
    }
    if (this.#kept + answer.bytes.length <= this.budget || answer.bytes.length <= keptPart) {
      this.#kept += answer.bytes.length;
      return { answer };
    }
    this.#kept += keptPart;
    return {
      answer: startOf(answer, keptPart),
      keptInPart: `the run had already kept ${Math.round(this.budget / 1024 / 1024)} MiB of answers' bodies, its own budget, so only this body's first ${keptPart / 1024} KiB (of ${answer.bytes.length} bytes) were kept, and it is not judged`,
    };
  }
}
