import { describe, expect, it } from 'vitest';
import { responseOf, type TransportResponse } from '../http/transport.ts';
import { bodyLimitChoice, findBodyLimit, paddedBody, smallestProbeBody } from './bodyLimitProbe.ts';

const invalid = () => responseOf(400, { 'content-type': 'application/json' }, JSON.stringify({ code: 'INVALID_BODY', message: 'categoryId', status: 400 }));
const tooLarge = (status = 413, code = 'PAYLOAD_TOO_LARGE') => responseOf(status, { 'content-type': 'application/json' }, JSON.stringify({ code, message: 'big', status }));

/** A side reading bodies up to `limit` bytes, answering `over` past it; the sizes it was sent. */
function sideWithLimit(limit: number, over: () => TransportResponse | undefined = tooLarge) {
  const sizes: number[] = [];
  return {
    sizes,
    send: async (size: number) => {
      sizes.push(size);
      return size > limit ? over() : invalid();
    },
  };
}

describe('the body-limit probe', () => {
  it('sends bodies of exactly the size asked for, invalid (categoryId a string), so none creates a pet', () => {
    for (const size of [smallestProbeBody, 1024, 65_537]) {
      expect(Buffer.byteLength(paddedBody(size))).toBe(size);
      expect(typeof JSON.parse(paddedBody(size)).categoryId).toBe('string');
    }
  });

  it('finds a power-of-two limit in one request after the doubling', async () => {
    const side = sideWithLimit(65_536);
    const outcome = await findBodyLimit(side.send, 2 * 1024 * 1024);
    expect(outcome).toMatchObject({ kind: 'limit', taken: 65_536, refused: 65_537, answer: { status: 413 } });
    expect(side.sizes).toEqual([smallestProbeBody, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072, 65_537]);
    expect(bodyLimitChoice(outcome, 2 * 1024 * 1024)).toEqual({ value: 65_536, shown: 'a body of 65536 bytes is read, one of 65537 gets 413 PAYLOAD_TOO_LARGE' });
  });

  it('bisects any other limit to the byte, whatever the refusal answers (here a 400 with its own code)', async () => {
    for (const limit of [102_400, 1_000_000, 1500]) {
      const side = sideWithLimit(limit, () => tooLarge(400, 'REQUEST_TOO_LARGE'));
      const outcome = await findBodyLimit(side.send, 2 * 1024 * 1024);
      expect(outcome).toMatchObject({ kind: 'limit', taken: limit, refused: limit + 1 });
      expect(side.sizes.length).toBeLessThanOrEqual(12 + 22);
    }
  });

  it('asks a size that got no answer once more before it counts as refused: one timeout on a busy side is no limit', async () => {
    let dropped = 0;
    const side = sideWithLimit(1_000_000);
    const flaky = async (size: number) => (size === 2048 && dropped++ === 0 ? undefined : side.send(size));
    const outcome = await findBodyLimit(flaky, 2 * 1024 * 1024);
    expect(outcome).toMatchObject({ kind: 'limit', taken: 1_000_000, refused: 1_000_001 });
    expect(dropped).toBe(2);
  });

  it('takes no answer to a large body as its refusal', async () => {
    const outcome = await findBodyLimit(sideWithLimit(10_000, () => undefined).send, 64 * 1024);
    expect(outcome).toMatchObject({ kind: 'limit', taken: 10_000, answer: undefined });
    expect(bodyLimitChoice(outcome, 64 * 1024)?.shown).toBe('a body of 10000 bytes is read, one of 10001 gets no answer');
  });

  it('reports the cap as read when no size up to it is refused', async () => {
    const side = sideWithLimit(Number.MAX_SAFE_INTEGER);
    const outcome = await findBodyLimit(side.send, 100_000);
    expect(outcome).toEqual({ kind: 'none', taken: 100_000, sent: 9 });
    expect(side.sizes.at(-1)).toBe(100_000);
    expect(bodyLimitChoice(outcome, 100_000)).toEqual({ value: 100_000, shown: 'every body up to the probe\'s cap of 100000 bytes is read (none refused for its size)' });
  });

  it('observes nothing when the invalid body is not refused as one, or the key or the quota is', async () => {
    expect(await findBodyLimit(async () => responseOf(201, {}, '{}'), 4096)).toMatchObject({ kind: 'not-observed', reason: expect.stringMatching(/got 201/) });
    let n = 0;
    expect(await findBodyLimit(async () => (n++ < 3 ? invalid() : responseOf(429, { 'retry-after': '5' }, '')), 1 << 20)).toMatchObject({ kind: 'not-observed', reason: expect.stringMatching(/got 429: the probe stopped/) });
    expect(bodyLimitChoice({ kind: 'not-observed', reason: 'x', sent: 1 }, 1)).toBeUndefined();
  });
});
