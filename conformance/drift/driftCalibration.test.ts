import { describe, expect, it } from 'vitest';
import { legalChoices, legalGateway, legalLimits } from '../testing/legalChoices.ts';
import { passThrough } from '../testing/injectTransport.ts';
import { drift, type Drifted } from '../testing/driftRuns.ts';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';

/** The drift run between the deployment and the mock given the profile an earlier run wrote of it. */
const calibrate = (deployment: Parameters<typeof drift>[0], observed: Drifted, options: Parameters<typeof drift>[2]) => drift(deployment, { mockOptions: { profile: observed.profile } }, options);

/** No open choice left, and none the mock cannot make. */
function expectNothingLeft(calibrated: Drifted): void {
  expect(calibrated.choices.map((c) => `${c.field}: ${c.base.shown} / ${c.against.shown}`)).toEqual([]);
  expect(calibrated.cannotMake).toEqual([]);
}

describe('a mock calibrated to a deployment', { timeout: 90_000 }, () => {
  it('shows no open-choice difference from the deployment whose profile it was given', async () => {
    const observed = await drift(legalChoices, {}, { probeRateLimit: true, probeBan: true });
    expect(observed.cannotMake).toEqual([]);
    // Its ban is the mock's, told with its own code and a Retry-After date.
    expect(observed.profile).toMatchObject({ ban: { threshold: 20, seconds: 300 }, errors: { banned: { code: 'err.api_key_banned' } }, retryAfter: 'http-date' });
    const calibrated = await calibrate(legalChoices, observed, { probeRateLimit: true, probeBan: true, againstIsMock: true });
    // The variant's lists carry `createdAt` where its created pets do not: one set of extra fields per profile cannot say that.
    expect(calibrated.choices.filter((c) => c.mockCannotMake === undefined)).toEqual([]);
    expect(calibrated.choices.map((c) => c.field)).toEqual(['extraPetFields']);
    expect(calibrated.breaks).toEqual([]);
    expect(calibrated.exitCode).toBe(0);
  });

  it('bans, counts keyless requests and limits bodies as a deployment that chose otherwise, once given its profile', async () => {
    const probes = { probeRateLimit: true, probeBan: true, probeMaxBody: 256 * 1024 };
    const observed = await drift(legalLimits, {}, probes);
    expect(observed.breaks).toEqual([]);
    expect(observed.cannotMake).toEqual([]);
    const differ = Object.fromEntries(observed.choices.map((c) => [c.field, { base: c.base.value, against: c.against.value }]));
    expect(differ).toEqual({
      ban: { base: { threshold: 5, seconds: 120 }, against: { threshold: 20, seconds: 300 } },
      'errors.banned': { base: { status: 429, code: 'KEY_SUSPENDED' }, against: { status: 429, code: 'API_KEY_BANNED' } },
      keylessLimit: { base: { perMinute: 30 }, against: { perMinute: 60 } },
      // The mock's 1 MiB is past the probe's cap: it read every body sent.
      bodyLimit: { base: 65_536, against: 262_144 },
    });
    // No body the mock was sent was too large for it: its payloadTooLarge answer is not seen.
    expect(observed.unobserved).toContainEqual(expect.objectContaining({ field: 'errors.payloadTooLarge', on: ['B'] }));
    expect(observed.choices.find((c) => c.field === 'ban')).toMatchObject({ row: 'Ban rule', base: { shown: expect.stringMatching(/^banned at the 5th refused request in a row \(4 after the first 429\), for 120 s, told by its code, KEY_SUSPENDED/) } });
    expect(observed.profile).toMatchObject({ ban: { threshold: 5, seconds: 120 }, keylessLimit: { perMinute: 30 }, bodyLimit: 65_536, errors: { banned: { code: 'KEY_SUSPENDED' }, payloadTooLarge: { status: 413, code: 'BODY_TOO_LARGE' } } });
    const calibrated = await calibrate(legalLimits, observed, probes);
    expect(calibrated.choices).toEqual([]);
    expect(calibrated.breaks).toEqual([]);
    expect(calibrated.same.map((s) => s.field)).toEqual(expect.arrayContaining(['ban', 'errors.banned', 'keylessLimit', 'bodyLimit', 'errors.payloadTooLarge']));
  });

  it('asks for the key before routing, answers no preflight, refuses categoryIds below 1 and sends no Sunset or Location as a gateway-fronted deployment, once given its profile', async () => {
    const observed = await drift(legalGateway, {}, { generatedRequests: 120 });
    expect(observed.breaks).toEqual([]);
    expect(observed.cannotMake).toEqual([]);
    expect(observed.profile).toMatchObject({ keylessUnlisted: 'unauthorized', preflight: 'unlisted', categoryIdRange: { minimum: 1 }, sunset: null, location: false });
    // The probes' differences come first; the generated traffic's join them after.
    const differ = Object.fromEntries(['keylessUnlisted', 'preflight', 'categoryIdRange', 'sunset', 'location'].map((field) => [field, observed.choices.find((c) => c.field === field)?.against.value]));
    expect(differ).toEqual({ keylessUnlisted: 'routed', preflight: 'answered', categoryIdRange: {}, sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', location: true });
    const calibrated = await calibrate(legalGateway, observed, { generatedRequests: 120, againstIsMock: true });
    expect(calibrated.choices.map((c) => `${c.field}: ${c.base.shown} / ${c.against.shown}`)).toEqual([]);
    expect(calibrated.breaks).toEqual([]);
    expect(calibrated.same.map((s) => s.field)).toEqual(expect.arrayContaining(['keylessUnlisted', 'preflight', 'categoryIdRange', 'sunset', 'location']));
  });

  it('learns a deployment that refuses categoryIds past 2^53 - 1 (its JSON numbers doubles): the bound in its profile, and nothing left once the mock is given it', async () => {
    const doubles = { mockOptions: { profile: { categoryIdRange: { minimum: -9007199254740991, maximum: 9007199254740991 } } } };
    const observed = await drift(doubles, {}, { generatedRequests: 120, againstIsMock: true });
    expect(observed.breaks).toEqual([]);
    expect(observed.cannotMake).toEqual([]);
    expect(observed.profile.categoryIdRange).toEqual({ minimum: -9007199254740991, maximum: 9007199254740991 });
    expect(observed.choices.find((c) => c.field === 'categoryIdRange')).toMatchObject({ against: { value: {} } });
    // The generated creates past 2^53 - 1 are the same choice, made by the same profile field.
    expect(observed.choices.filter((c) => c.field === 'int64Range')).toEqual([expect.objectContaining({ row: 'Range of int64 values', base: expect.objectContaining({ shown: '400 INVALID_BODY' }), against: expect.objectContaining({ shown: '201' }) })]);
    expect(observed.choices.find((c) => c.field === 'int64Range')).not.toHaveProperty('mockCannotMake');
    const calibrated = await calibrate(doubles, observed, { generatedRequests: 120, againstIsMock: true });
    expectNothingLeft(calibrated);
  });

  /**
   * A deployment given one profile choice: drift writes that choice in its profile, names the open
   * choice as `shown`, and leaves nothing once the mock is given the profile. The calibrated run.
   */
  async function learnsOneChoice<F extends keyof DeploymentProfile>(field: F, value: NonNullable<DeploymentProfile[F]>, shown: object) {
    const side = { mockOptions: { profile: { [field]: value } } };
    const observed = await drift(side, {}, { generatedRequests: 40, againstIsMock: true });
    expect(observed.breaks).toEqual([]);
    expect(observed.cannotMake).toEqual([]);
    expect(observed.profile[field]).toBe(value);
    expect(observed.choices.find((c) => c.field === field)).toMatchObject(shown);
    const calibrated = await calibrate(side, observed, { generatedRequests: 40, againstIsMock: true });
    expectNothingLeft(calibrated);
    return calibrated;
  }

  it('learns a deployment whose reads of one list come in different orders: unstable in its profile, and nothing left once the mock is given it', async () => {
    await learnsOneChoice('listOrder', 'unstable', { row: 'List order', base: { shown: 'two reads of the same list come in different orders' } });
  });

  it('learns a deployment that tags its GETs and answers a matching If-None-Match with 304: etag conditional in its profile, and nothing left once the mock is given it', async () => {
    const calibrated = await learnsOneChoice('etag', 'conditional', { row: 'Headers beyond the contract\'s', base: { value: 'conditional' }, against: { value: null } });
    expect(calibrated.same.find((s) => s.field === 'etag')?.shown).toMatch(/gets 304$/);
  });

  it('learns a deployment that answers each reason it refuses a create body for with its own code: each in its profile, and nothing left once the mock is given it', async () => {
    const byReason = {
      mockOptions: {
        profile: {
          maxNameLength: 50, categoryIdRange: { minimum: 1 }, unknownBodyFields: 'refused' as const,
          errors: { invalidBody: { code: 'VALIDATION_FAILED' }, nameTooLong: { code: 'NAME_TOO_LONG' }, categoryOutOfRange: { code: 'UNKNOWN_CATEGORY' }, unknownBodyField: { code: 'UNKNOWN_FIELD' } },
        },
      },
    };
    const observed = await drift(byReason, {}, { generatedRequests: 120, againstIsMock: true });
    expect(observed.breaks).toEqual([]);
    expect(observed.cannotMake).toEqual([]);
    expect(observed.profile).toMatchObject({ maxNameLength: 50, categoryIdRange: { minimum: 1 }, unknownBodyFields: 'refused', errors: { invalidBody: { code: 'VALIDATION_FAILED' }, nameTooLong: { code: 'NAME_TOO_LONG' }, categoryOutOfRange: { code: 'UNKNOWN_CATEGORY' }, unknownBodyField: { code: 'UNKNOWN_FIELD' } } });
    const calibrated = await calibrate(byReason, observed, { generatedRequests: 120, againstIsMock: true });
    expectNothingLeft(calibrated);
  });

  it('finds no categoryId difference between the mock and a deployment that keeps every int64 exactly', async () => {
    const result = await drift({}, {}, { generatedRequests: 120 });
    expect(result.same.find((s) => s.field === 'categoryIdRange')?.shown).toMatch(/9007199254740993 is taken \(201, kept exactly\), -9007199254740993 is taken \(201, kept exactly\)$/);
    expect(result.choices).toEqual([]);
  });

  it('counts keyless requests by the day as a deployment whose day binds first, and bans none as one that bans none', async () => {
    const dayFirst = { transform: passThrough, mockOptions: { keylessLimits: { perMinute: 100, perDay: 40 }, ban: { threshold: Number.MAX_SAFE_INTEGER } } };
    const probes = { probeBan: true, probeBanMaxRequests: 330, probeMaxBody: 4096 };
    const observed = await drift(dayFirst, {}, probes);
    expect(observed.choices.find((c) => c.field === 'keylessLimit')).toMatchObject({ base: { value: { perDay: 40 } }, against: { value: { perMinute: 60 } } });
    expect(observed.choices.find((c) => c.field === 'ban')).toMatchObject({ base: { value: null, shown: expect.stringMatching(/^no ban observed: \d+ refused requests in a row/) } });
    expect(observed.profile).toMatchObject({ keylessLimit: { perDay: 40 }, ban: null });
    const calibrated = await calibrate(dayFirst, observed, probes);
    expect(calibrated.choices).toEqual([]);
  });
});
