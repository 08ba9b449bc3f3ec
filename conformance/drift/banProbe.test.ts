import { describe, expect, it } from 'vitest';
import { responseOf, type TransportResponse } from '../http/transport.ts';
import { banChoice, banShown, retryAfterSeconds, watchForBan } from './banProbe.ts';

const now = Date.UTC(2026, 5, 1, 12, 30, 30);
const ok = () => responseOf(200, { 'content-type': 'application/json' }, '[]');
const refused = (retryAfter: string, code = 'RATE_LIMITED', status = 429, extra: Record<string, string> = {}) =>
  responseOf(status, { 'content-type': 'application/json', 'retry-after': retryAfter, ...extra }, JSON.stringify({ code, message: 'no', status }));

/** A sender answering the hand-built answers in order, counting the requests. */
function scripted(answers: (TransportResponse | undefined)[]) {
  let i = 0;
  return { send: async () => answers[i++], get sent() {
    return i;
  } };
}

describe('the ban probe recognises a ban', () => {
  it('by its code: the 20th refusal in a row answers API_KEY_BANNED with the ban\'s Retry-After', async () => {
    const answers = [ok(), ok(), ...Array.from({ length: 19 }, () => refused('30')), refused('300', 'API_KEY_BANNED')];
    const outcome = await watchForBan(scripted(answers).send, 100, () => now);
    expect(outcome).toMatchObject({ kind: 'banned', threshold: 20, seconds: 300, sent: 22 });
    expect(banChoice(outcome)).toEqual({ value: { threshold: 20, seconds: 300 }, shown: expect.stringMatching(/^banned at the 20th refused request in a row \(19 after the first 429\), for 300 s, told by its code, API_KEY_BANNED where the spent quota got RATE_LIMITED$/) });
  });

  it('by a Retry-After that jumps, the code alike, in either of its forms', async () => {
    const dated = (seconds: number) => refused(new Date(now + seconds * 1000).toUTCString(), 'TOO_MANY', 429, { date: new Date(now).toUTCString() });
    const outcome = await watchForBan(scripted([dated(30), dated(29), dated(29), dated(600)]).send, 10, () => now);
    expect(outcome).toMatchObject({ kind: 'banned', threshold: 4, seconds: 600 });
    expect((outcome as { how: string }).how).toBe('its Retry-After, which jumped from 29 s to 600 s');
  });

  it('by another status: a 403 for the banned key', async () => {
    const outcome = await watchForBan(scripted([refused('10'), refused('9'), refused('120', 'KEY_SUSPENDED', 403)]).send, 10, () => now);
    expect(outcome).toMatchObject({ kind: 'banned', threshold: 3, seconds: 120, how: 'its status, 403 where the spent quota got 429' });
  });

  it('does not take a Retry-After counting down, or up by rounding, for a ban', () => {
    expect(banShown(refused('29'), refused('30'), refused('30'), now)).toBeUndefined();
    expect(banShown(refused('32'), refused('30'), refused('30'), now)).toBeUndefined();
    expect(banShown(refused('33'), refused('30'), refused('30'), now)).toMatch(/jumped/);
  });

  it('starts the count again when a request is served between refusals (the window turned)', async () => {
    const outcome = await watchForBan(scripted([refused('2'), refused('1'), ok(), refused('60'), refused('59'), refused('300', 'BANNED')]).send, 10, () => now);
    expect(outcome).toMatchObject({ kind: 'banned', threshold: 3 });
  });
});

describe('the ban probe without a ban to see', () => {
  it('reports no ban observed when refusals run to the cap, which the contract allows ("may")', async () => {
    const outcome = await watchForBan(scripted([ok(), ...Array.from({ length: 9 }, (_, i) => refused(String(50 - i)))]).send, 10, () => now);
    expect(outcome).toMatchObject({ kind: 'no-ban', refused: 9, sent: 10 });
    expect(banChoice(outcome)).toEqual({ value: null, shown: 'no ban observed: 9 refused requests in a row after the quota was spent, up to the probe\'s cap' });
  });

  it('observes nothing when no 429 comes within the cap, or the side stops answering or refuses the key', async () => {
    expect(await watchForBan(scripted(Array.from({ length: 5 }, ok)).send, 5, () => now)).toMatchObject({ kind: 'not-observed', reason: expect.stringMatching(/no 429 within the probe's 5 requests/) });
    expect(await watchForBan(scripted([ok(), undefined]).send, 5, () => now)).toMatchObject({ kind: 'not-observed', reason: 'request 2 of the ban probe got no answer' });
    expect(await watchForBan(scripted([responseOf(401, {}, '')]).send, 5, () => now)).toMatchObject({ kind: 'not-observed', reason: expect.stringMatching(/got 401 before any 429/) });
    expect(await watchForBan(scripted([refused('5'), responseOf(503, {}, '')]).send, 5, () => now)).toMatchObject({ kind: 'not-observed' });
    expect(banChoice({ kind: 'not-observed', reason: 'x', sent: 1 })).toBeUndefined();
  });

  it('reads Retry-After as seconds, or as an HTTP-date against the answer\'s Date or else the side\'s clock', () => {
    expect(retryAfterSeconds(refused('42'), now)).toBe(42);
    expect(retryAfterSeconds(refused(new Date(now + 90_000).toUTCString()), now)).toBe(90);
    expect(retryAfterSeconds(refused(new Date(now + 90_000).toUTCString(), 'X', 429, { date: new Date(now + 30_000).toUTCString() }), now)).toBe(60);
    expect(retryAfterSeconds(refused('soon'), now)).toBeUndefined();
  });
});
