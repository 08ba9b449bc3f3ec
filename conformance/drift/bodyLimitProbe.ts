// The body-limit probe: the size from which a side refuses a create body for its size (413, or
// whatever it answers), where the contract says "Maximum length of ... a request body: not shown".
// Every body it sends is a NewPet whose `categoryId` is a string of padding: invalid if read
// ("400: ... has invalid values"), so nothing is ever created, whatever its size. The answer to
// the smallest one is the invalid body's answer; a size whose answer differs from it (another
// status or code, or no answer twice in a row: one unanswered request is a slow machine as often as
// a limit) is refused for its size. Sizes double from 1 KiB to the cap, then
// the last size read and the first refused are bisected to the byte (after one request asking
// whether the limit is the last size read, as a power of two often is).
import type { TransportResponse } from '../http/transport.ts';
import { errorCodeOfText } from '../model/errorBody.ts';

/** The largest body the probe sends unless told otherwise: 2 MiB, past the common 100 KB and 1 MB limits and the mock's 1 MiB. */
export const defaultProbeMaxBody = 2 * 1024 * 1024;

const skeleton = JSON.stringify({ name: 'Drift probe body', categoryId: '' });

/** The smallest body the probe sends: the skeleton with one byte of padding. */
export const smallestProbeBody = skeleton.length + 1;

/** A create body of exactly `size` bytes (at least smallestProbeBody), refused as invalid if read. */
export function paddedBody(size: number): string {
  return skeleton.replace('""', `"${'x'.repeat(Math.max(1, size - skeleton.length))}"`);
}

export type BodyLimitOutcome =
  /** Bodies of `taken` bytes get the invalid body's answer, bodies of `refused` = taken + 1 bytes another (`answer`; none when the side did not answer). */
  | { kind: 'limit'; taken: number; refused: number; answer: TransportResponse | undefined; sent: number }
  /** Every size up to the cap got the invalid body's answer. */
  | { kind: 'none'; taken: number; sent: number }
  | { kind: 'not-observed'; reason: string; sent: number };

/** Whether the probe must stop: an answer about the key or the quota, not the body. */
const aboutTheClient = (answer: TransportResponse | undefined) => answer !== undefined && (answer.status === 401 || answer.status === 429);

/**
 * Finds the largest body a side reads: `send(size)` sends a padded body of that many bytes. At
 * most about 12 + 22 requests for a 2 MiB cap; 14 when the limit is a power of two from 1 KiB.
 */
export async function findBodyLimit(send: (size: number) => Promise<TransportResponse | undefined>, cap: number): Promise<BodyLimitOutcome> {
  let sent = 0;
  const ask = (size: number) => {
    sent++;
    return send(size);
  };
  const baseline = await ask(smallestProbeBody);
  if (!baseline) return { kind: 'not-observed', reason: 'the smallest probe body got no answer', sent };
  if (baseline.status < 400 || baseline.status >= 500 || aboutTheClient(baseline)) return { kind: 'not-observed', reason: `the smallest probe body, invalid (categoryId is not an integer), got ${baseline.status}, not the 4xx of an invalid body`, sent };
  const baseCode = errorCodeOfText(baseline.body);
  /** True: read as the invalid body it is; false: refused for its size; a string: why the probe stops. */
  const readAt = async (size: number): Promise<{ read: boolean; answer: TransportResponse | undefined } | string> => {
    // No answer is asked once more: a request that timed out on a busy side says nothing of its size.
    const answer = (await ask(size)) ?? (await ask(size));
    if (aboutTheClient(answer)) return `a body of ${size} bytes got ${answer!.status}: the probe stopped`;
    if (answer && answer.status >= 200 && answer.status < 300) return `a body of ${size} bytes, invalid, got ${answer.status}`;
    return { read: answer !== undefined && answer.status === baseline.status && errorCodeOfText(answer.body) === baseCode, answer };
  };
  let taken = smallestProbeBody;
  let refused: { size: number; answer: TransportResponse | undefined } | undefined;
  for (let size = Math.min(1024, cap); !refused; size = Math.min(size * 2, cap)) {
    if (size <= taken) break;
    const got = await readAt(size);
    if (typeof got === 'string') return { kind: 'not-observed', reason: got, sent };
    if (got.read) taken = size;
    else refused = { size, answer: got.answer };
    if (size === cap) break;
  }
  if (!refused) return { kind: 'none', taken, sent };
  // A limit is often the power of two the doubling read (1 MiB): one request says so, rather than
  // twenty of about that size; otherwise the bisection goes on from one byte higher.
  for (let first = true; refused.size - taken > 1; first = false) {
    const middle: number = first ? taken + 1 : Math.floor((taken + refused.size) / 2);
    const got = await readAt(middle);
    if (typeof got === 'string') return { kind: 'not-observed', reason: got, sent };
    if (got.read) taken = middle;
    else refused = { size: middle, answer: got.answer };
  }
  return { kind: 'limit', taken, refused: refused.size, answer: refused.answer, sent };
}

/** The limit a side showed, as a profile writes it (`bodyLimit`), in a report's words; undefined when not observed. */
export function bodyLimitChoice(outcome: BodyLimitOutcome, cap: number): { value: number; shown: string } | undefined {
  if (outcome.kind === 'not-observed') return undefined;
  if (outcome.kind === 'none') return { value: outcome.taken, shown: `every body up to the probe's cap of ${cap} bytes is read (none refused for its size)` };
  const how = outcome.answer ? `${outcome.answer.status}${errorCodeOfText(outcome.answer.body) !== undefined ? ` ${errorCodeOfText(outcome.answer.body)}` : ''}` : 'no answer';
  return { value: outcome.taken, shown: `a body of ${outcome.taken} bytes is read, one of ${outcome.refused} gets ${how}` };
}
