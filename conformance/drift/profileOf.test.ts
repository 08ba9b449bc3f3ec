import { describe, expect, it } from 'vitest';
import type { Observation } from './probes.ts';
import { profileOf } from './profileOf.ts';

const seen = (entries: Record<string, unknown>): Map<string, Observation> => new Map(Object.entries(entries).map(([field, value]) => [field, { field, value, shown: JSON.stringify(value), probe: field }]));

describe('the profile of what a side showed', () => {
  it('writes its ban, its body limit and its keyless limit per minute as shown', () => {
    const { profile, cannotMake } = profileOf(seen({ ban: { threshold: 5, seconds: 120 }, bodyLimit: 65_536, keylessLimit: { perMinute: 30 }, 'errors.payloadTooLarge': { status: 413, code: 'BODY_TOO_LARGE' } }), 'test');
    expect(profile).toMatchObject({ ban: { threshold: 5, seconds: 120 }, bodyLimit: 65_536, keylessLimit: { perMinute: 30 }, errors: { payloadTooLarge: { status: 413, code: 'BODY_TOO_LARGE' } } });
    expect(cannotMake).toEqual([]);
  });

  it('writes "no ban observed" as a deployment that bans no key', () => {
    expect(profileOf(seen({ ban: null }), 'test').profile.ban).toBeNull();
  });

  it('writes a day\'s keyless limit with a per-minute limit at least as high, so that the mock\'s day binds as the side\'s did', () => {
    expect(profileOf(seen({ keylessLimit: { perDay: 40 } }), 'test').profile.keylessLimit).toEqual({ perDay: 40 });
    expect(profileOf(seen({ keylessLimit: { perDay: 500 } }), 'test').profile.keylessLimit).toEqual({ perMinute: 500, perDay: 500 });
  });

  it('names a ban told by another status than the 429 the contract names as one the mock cannot make', () => {
    const { profile, cannotMake } = profileOf(seen({ 'errors.banned': { status: 403, code: 'KEY_SUSPENDED' } }), 'test');
    expect(profile.errors).toEqual({ banned: { code: 'KEY_SUSPENDED' } });
    expect(cannotMake).toEqual([{ field: 'errors.banned', reason: 'the mock answers banned with the 429 the contract names; it cannot answer 403' }]);
  });

  it('writes the gateway choices a side showed: the key asked before routing, OPTIONS unserved, the categoryId range, Sunset and Location', () => {
    const { profile, cannotMake } = profileOf(seen({ keylessUnlisted: 'unauthorized', preflight: 'unlisted', categoryIdRange: { minimum: 1 }, sunset: null, location: false }), 'test');
    expect(profile).toMatchObject({ keylessUnlisted: 'unauthorized', preflight: 'unlisted', categoryIdRange: { minimum: 1 }, sunset: null, location: false });
    expect(cannotMake).toEqual([]);
  });

  it('writes what a side showed of ETag: conditional, sent, or none', () => {
    for (const etag of ['conditional', 'sent', null]) expect(profileOf(seen({ etag }), 'test')).toEqual({ profile: expect.objectContaining({ etag }), cannotMake: [] });
  });

  it('writes the code of each reason a side refused a create body for beside invalidBody\'s, and names a reason answered with another status than 400 as one the mock cannot make', () => {
    const { profile, cannotMake } = profileOf(seen({ maxNameLength: 50, 'errors.invalidBody': { status: 400, code: 'VALIDATION_FAILED' }, 'errors.nameTooLong': { status: 400, code: 'NAME_TOO_LONG' }, 'errors.categoryOutOfRange': { status: 400, code: 'UNKNOWN_CATEGORY' } }), 'test');
    expect(profile).toMatchObject({ maxNameLength: 50, errors: { invalidBody: { code: 'VALIDATION_FAILED' }, nameTooLong: { code: 'NAME_TOO_LONG' }, categoryOutOfRange: { code: 'UNKNOWN_CATEGORY' } } });
    expect(cannotMake).toEqual([]);
    expect(profileOf(seen({ 'errors.unknownBodyField': { status: 422, code: 'UNKNOWN_FIELD' } }), 'test').cannotMake).toEqual([{ field: 'errors.unknownBodyField', reason: 'the mock answers unknownBodyField with the 400 the contract names; it cannot answer 422' }]);
  });

  it('names a Sunset on another day than the contract\'s, and answers a profile cannot hold, as choices the mock cannot make', () => {
    const { profile, cannotMake } = profileOf(seen({ sunset: 'Fri, 05 Dec 2025 00:00:00 GMT', keylessUnlisted: 'other: 401 and 404', categoryIdRange: 'other: 0 refused, -1 taken' }), 'test');
    expect(profile).not.toHaveProperty('sunset');
    expect(profile).not.toHaveProperty('keylessUnlisted');
    expect(profile).not.toHaveProperty('categoryIdRange');
    expect(cannotMake.map((c) => c.field)).toEqual(['sunset', 'keylessUnlisted', 'categoryIdRange']);
  });
});
