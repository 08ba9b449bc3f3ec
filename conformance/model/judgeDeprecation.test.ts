import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { judgeDeprecation } from './judgeDeprecation.ts';
import { errorBody, ex, failuresOf, ofRule, petJson, rate, resetSeq, T0, viewOf } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

const deprecation = (exchange: Exchange) => judgeDeprecation(exchange, viewOf(exchange));
/** getPet answered 200 with these headers. */
const getPet = (headers: Record<string, string>, more: { status?: number; date?: string } = {}) =>
  ex({ path: '/pets/1', status: more.status ?? 200, headers: { ...rate(99), ...headers, ...(more.date ? { date: more.date } : {}) }, body: (more.status ?? 200) === 200 ? petJson({ id: 1, name: 'A', categoryId: 1 }) : errorBody(more.status ?? 200) });
const outcomes = (exchange: Exchange) => ofRule(deprecation(exchange), 'deprecation.sunset-date').map((j) => j.outcome);

const removal = Date.UTC(2030, 11, 5);
const unix = (ms: number) => `@${Math.floor(ms / 1000)}`;

describe('deprecation.only-get-pet: only getPet is declared deprecated', () => {
  it('holds listPets and createPet answered without Deprecation or Sunset', () => {
    for (const exchange of [ex({ status: 200, body: '[]' }), ex({ method: 'POST', requestBody: { name: 'A', categoryId: 1 }, status: 201, body: petJson({ id: 1, name: 'A', categoryId: 1 }) })]) {
      expect(deprecation(exchange).map((j) => [j.rule, j.outcome])).toEqual([['deprecation.only-get-pet', 'held']]);
    }
  });

  it('fails listPets declaring Deprecation, naming the header', () => {
    const [failure] = failuresOf(deprecation(ex({ status: 200, headers: { deprecation: 'true' }, body: '[]' })), 'deprecation.only-get-pet');
    expect(failure!.message).toContain('declares Deprecation: true, but listPets is not deprecated');
  });

  it('fails createPet declaring Sunset, even on a refusal', () => {
    const [failure] = failuresOf(deprecation(ex({ method: 'POST', requestBody: {}, status: 400, headers: { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, body: errorBody(400) })), 'deprecation.only-get-pet');
    expect(failure!.message).toContain('declares Sunset: Thu, 05 Dec 2030 00:00:00 GMT, but createPet is not deprecated');
  });

  it('fails listPets declaring both, naming both', () => {
    const [failure] = failuresOf(deprecation(ex({ status: 200, headers: { deprecation: '@1700000000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, body: '[]' })), 'deprecation.only-get-pet');
    expect(failure!.message).toContain('Sunset: Thu, 05 Dec 2030 00:00:00 GMT and Deprecation: @1700000000');
  });

  it('says nothing of GET /store/orders declaring its own Deprecation and Sunset, which the contract does not show, and judges only their grammar there', () => {
    const retired = ex({ path: '/store/orders', status: 200, headers: { deprecation: '@1764547200', sunset: 'Tue, 01 Jun 2027 00:00:00 GMT', link: '<https://docs.example.com/store-retirement>; rel="sunset"' }, body: '[]' });
    expect(deprecation(retired).map((j) => [j.rule, j.outcome])).toEqual([['deprecation.field-grammar', 'held'], ['deprecation.field-grammar', 'held'], ['deprecation.sunset-not-before', 'held']]);
    expect(deprecation(ex({ path: '/store/orders', status: 200, body: '[]' }))).toEqual([]);
    // Its grammar still holds wherever the fields are sent.
    expect(failuresOf(deprecation(ex({ path: '/store/orders', status: 200, headers: { deprecation: 'soon' }, body: '[]' })), 'deprecation.field-grammar')).toHaveLength(1);
  });

  it('says nothing of 429s and of undocumented requests (only the fields\' grammar is judged there)', () => {
    expect(ofRule(deprecation(ex({ status: 429, headers: { deprecation: 'true' }, body: errorBody(429) })), 'deprecation.only-get-pet')).toEqual([]);
    expect(deprecation(ex({ method: 'HEAD', status: 200, headers: { deprecation: 'true' } })).map((j) => j.rule)).toEqual(['deprecation.field-grammar']);
  });
});

describe('deprecation.sunset-date: where getPet states its removal, it is 5 December 2030', () => {
  it('says nothing of a getPet that states neither Sunset nor Deprecation', () => {
    expect(deprecation(getPet({}))).toEqual([]);
  });

  it.each(['Thu, 05 Dec 2030 00:00:00 GMT', 'Thu, 05 Dec 2030 12:30:00 GMT', 'Thu, 05 Dec 2030 23:59:59 GMT', '2030-12-05T18:00:00Z'])('holds Sunset: %s (an instant of 5 December 2030 UTC)', (sunset) => {
    expect(outcomes(getPet({ sunset }))).toEqual(['held']);
  });

  it('holds a Sunset on getPet\'s 404 and 401 too', () => {
    expect(outcomes(getPet({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, { status: 404 }))).toEqual(['held']);
    expect(outcomes(getPet({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, { status: 401 }))).toEqual(['held']);
  });

  // "5 December 2030" in some zone: 4 December 10:00 UTC (5 December in UTC+14) to 6 December 12:00 UTC (UTC-12).
  it.each(['Fri, 06 Dec 2030 12:00:00 GMT', 'Wed, 04 Dec 2030 09:59:59 GMT', 'Sun, 12 May 2030 00:00:00 GMT', 'Thu, 05 Dec 2031 00:00:00 GMT'])('fails Sunset: %s, naming it', (sunset) => {
    const [failure] = failuresOf(deprecation(getPet({ sunset })), 'deprecation.sunset-date');
    expect(failure!.message).toContain(`says Sunset: ${sunset}; getPet is to be removed on 5 December 2030`);
  });

  it('fails a Sunset that is no date', () => {
    expect(failuresOf(deprecation(getPet({ sunset: 'soon' })), 'deprecation.sunset-date')).toHaveLength(1);
  });

  it('holds Deprecation as @<unix> of a past instant (RFC 9745)', () => {
    expect(outcomes(getPet({ deprecation: '@1700000000' }))).toEqual(['held']);
    expect(outcomes(getPet({ deprecation: unix(T0 - 1000) }))).toEqual(['held']);
  });

  it('holds Deprecation: true (its drafts), in any case', () => {
    expect(outcomes(getPet({ deprecation: 'true' }))).toEqual(['held']);
    expect(outcomes(getPet({ deprecation: 'TRUE' }))).toEqual(['held']);
  });

  it('holds Deprecation as a past HTTP-date (its drafts)', () => {
    expect(outcomes(getPet({ deprecation: 'Sun, 01 Jan 2023 00:00:00 GMT' }))).toEqual(['held']);
  });

  it('holds a Deprecation instant within a day after the answer (clock slack)', () => {
    expect(outcomes(getPet({ deprecation: unix(T0 + 3_600_000) }))).toEqual(['held']);
  });

  it('holds Deprecation and Sunset together, each judged', () => {
    expect(outcomes(getPet({ deprecation: '@1700000000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }))).toEqual(['held', 'held']);
  });

  it('fails a Deprecation instant still to come, naming it', () => {
    const [failure] = failuresOf(deprecation(getPet({ deprecation: unix(T0 + 30 * 86_400_000) })), 'deprecation.sunset-date');
    expect(failure!.message).toContain(`says Deprecation: ${unix(T0 + 30 * 86_400_000)}, which says getPet is not deprecated yet`);
  });

  it('fails a Deprecation dated at the removal', () => {
    expect(failuresOf(deprecation(getPet({ deprecation: unix(removal) })), 'deprecation.sunset-date')).toHaveLength(1);
  });

  it('judges whether the Deprecation instant is past by the answer\'s Date header', () => {
    // 1 January 2029: to come for an answer of June 2026, past for one dated 2031, and before the removal either way.
    expect(outcomes(getPet({ deprecation: unix(Date.UTC(2029, 0, 1)) }, { date: 'Wed, 01 Jan 2031 00:00:00 GMT' }))).toEqual(['held']);
    expect(outcomes(getPet({ deprecation: unix(Date.UTC(2029, 0, 1)) }))).toEqual(['failure']);
  });

  it.each(['false', 'yes', '@soon', '1700000000'])('fails Deprecation: %s (no instant, or not deprecated)', (value) => {
    expect(failuresOf(deprecation(getPet({ deprecation: value })), 'deprecation.sunset-date')).toHaveLength(1);
  });

  it('says nothing of a getPet answered 429', () => {
    expect(outcomes(getPet({ sunset: 'soon' }, { status: 429 }))).toEqual([]);
  });
});

describe('deprecation.field-grammar: Deprecation is an sf-date, Sunset an IMF-fixdate', () => {
  const grammar = (exchange: Exchange) => ofRule(deprecation(exchange), 'deprecation.field-grammar');

  it('holds Deprecation @<seconds> and Sunset as an IMF-fixdate', () => {
    expect(grammar(getPet({ deprecation: '@1688169599', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })).map((j) => j.outcome)).toEqual(['held', 'held']);
  });

  it('warns of Deprecation: true and of an HTTP-date, the drafts\' forms, pointing to @<seconds>', () => {
    for (const value of ['true', 'Sun, 01 Jan 2023 00:00:00 GMT']) {
      const [judged] = grammar(getPet({ deprecation: value }));
      expect(judged!.outcome).toBe('warning');
      expect(judged!.message).toContain('a form of the drafts before RFC 9745');
    }
  });

  it('fails a Deprecation that is no date, wherever it is sent', () => {
    const [judged] = grammar(ex({ path: '/nowhere', status: 404, headers: { deprecation: 'yes', ...rate(9) }, body: errorBody(404) }));
    expect(judged!.outcome).toBe('failure');
    expect(judged!.message).toContain('Deprecation: "yes", no date');
  });

  it('fails a Sunset in an obsolete date form or no date, and a field sent twice', () => {
    expect(grammar(getPet({ sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' }))[0]!.message).toContain('an obsolete RFC 850 date');
    expect(grammar(getPet({ sunset: '2030-12-05' }))[0]!.message).toContain('not an HTTP-date');
    const twice = ex({ path: '/pets/1', status: 200, headers: { ...rate(9), sunset: ['Thu, 05 Dec 2030 00:00:00 GMT', 'Thu, 05 Dec 2030 00:00:00 GMT'] }, body: petJson({ id: 1, name: 'A', categoryId: 1 }) });
    expect(grammar(twice)[0]!.message).toContain('sends Sunset 2 times');
  });

  it('judges nothing of an answer without either field', () => {
    expect(grammar(getPet({}))).toEqual([]);
  });
});

describe('deprecation.sunset-not-before: Sunset is not earlier than Deprecation (RFC 9745, 4)', () => {
  const relation = (exchange: Exchange) => ofRule(deprecation(exchange), 'deprecation.sunset-not-before');

  it('holds a Sunset after the Deprecation, or at the same instant', () => {
    expect(relation(getPet({ deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })).map((j) => j.outcome)).toEqual(['held']);
    expect(relation(getPet({ deprecation: '@1767225600', sunset: 'Thu, 01 Jan 2026 00:00:00 GMT' })).map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a Sunset before the Deprecation, wherever it is sent, naming both', () => {
    const [judged] = relation(ex({ path: '/nowhere', status: 404, headers: { ...rate(9), deprecation: '@1767225600', sunset: 'Wed, 31 Dec 2025 23:59:59 GMT' }, body: errorBody(404) }));
    expect(judged!.outcome).toBe('failure');
    expect(judged!.message).toContain('says Deprecation: @1767225600 (2026-01-01T00:00:00.000Z) but Sunset: Wed, 31 Dec 2025 23:59:59 GMT, earlier');
  });

  it('judges nothing without both dates: one field, Deprecation: true, or a Sunset that is no date', () => {
    expect(relation(getPet({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }))).toEqual([]);
    expect(relation(getPet({ deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }))).toEqual([]);
    expect(relation(getPet({ deprecation: '@1767225600', sunset: 'soon' }))).toEqual([]);
  });
});

describe('what the mock sends, as the suite judges it', () => {
  it('holds the mock\'s getPet fields before the removal: Deprecation, Sunset and the Link to the replacement', () => {
    const judged = deprecation(getPet({ deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="alternate"; title="GET /pets with the status filter"' }));
    expect(judged.filter((j) => j.outcome !== 'held')).toEqual([]);
    expect(judged.map((j) => j.rule)).toEqual(['deprecation.field-grammar', 'deprecation.field-grammar', 'deprecation.sunset-not-before', 'deprecation.sunset-date', 'deprecation.sunset-date']);
  });

  it('says nothing against the mock\'s 410 after the removal, which keeps only the Link', () => {
    const judged = deprecation(getPet({ link: '</v1/pets>; rel="alternate"' }, { status: 410, date: 'Thu, 05 Dec 2030 00:00:00 GMT' }));
    expect(judged).toEqual([]);
  });
});

