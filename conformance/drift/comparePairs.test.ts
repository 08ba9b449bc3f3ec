import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';
import { comparePairs, pairAnswers, type SideAnswer } from './comparePairs.ts';
import { driftFields } from './driftFields.ts';
import { generatedChoices, situationOf } from './situationOf.ts';

let seq = 0;
const answer = (key: string, request: Partial<SideAnswer['request']>, status: number, body: unknown = undefined, headers: Record<string, string> = {}, petOrigin?: string): SideAnswer => ({
  key,
  seq: ++seq,
  request: { method: 'GET', path: '/pets', auth: 'key', intent: 'valid', operationId: 'listPets', ...request },
  response: { status, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? '' : JSON.stringify(body), json: body },
  ...(petOrigin !== undefined ? { petOrigin } : {}),
});
const error = (code: string, status: number) => ({ code, message: `${code} happened`, status });
const noFailure = () => false;
const compare = (base: SideAnswer[], against: SideAnswer[], failed: (side: 'base' | 'against', seq: number) => boolean = noFailure) => comparePairs(pairAnswers(base, against), failed);

describe('pairing the answers of the generated traffic', () => {
  it('pairs the two answers to one request by its key, whatever order they came in, and keeps one sent to a side only', () => {
    const pairs = pairAnswers([answer('a#1', {}, 200), answer('b#1', {}, 200)], [answer('b#1', {}, 200), answer('c#1', {}, 200)]);
    expect(pairs.map((p) => [p.key, p.base !== undefined, p.against !== undefined])).toEqual([['a#1', true, false], ['b#1', true, true], ['c#1', false, true]]);
  });
});

describe('comparing a pair through the model', () => {
  it('files a limit out of range refused with another status and code as errors.invalidQuery, with both answers', () => {
    const request = { path: '/pets?limit=0', intent: 'invalid' as const };
    const [d] = compare([answer('k#1', request, 422, error('VALIDATION', 422))], [answer('k#1', request, 400, error('INVALID_QUERY_PARAMETER', 400))]);
    expect(d).toMatchObject({ kind: 'choice', field: 'errors.invalidQuery', base: '422 VALIDATION', against: '400 INVALID_QUERY_PARAMETER', baseValue: { status: 422, code: 'VALIDATION' } });
  });

  it('reports a pair a judge failed on one side as that side\'s break, never as drift', () => {
    const request = { path: '/pets?limit=0', intent: 'invalid' as const };
    const b = answer('k#1', request, 200, []);
    const found = compare([b], [answer('k#1', request, 400, error('INVALID_QUERY_PARAMETER', 400))], (side, s) => side === 'base' && s === b.seq);
    expect(found).toEqual([expect.objectContaining({ kind: 'break', sides: ['base'], how: 'judged' })]);
  });

  it('reports a status the contract pins that one side did not give as that side\'s break, even when no judge failed it', () => {
    const request = { auth: 'none' as const, intent: 'unauthenticated' as const };
    const [d] = compare([answer('k#1', request, 404, error('NOT_FOUND', 404))], [answer('k#1', request, 401, error('UNAUTHORIZED', 401))]);
    expect(d).toMatchObject({ kind: 'break', sides: ['base'], how: 'pinned', pinned: '401' });
  });

  it('reports an Error without a string code (a number) as a break of its side, never as a choice of codes', () => {
    const request = { method: 'PUT' as const, path: '/pets', operationId: 'unlisted' };
    const [d] = compare([answer('k#1', request, 404, { code: 404, message: 'no', status: 404 })], [answer('k#1', request, 405, error('METHOD_NOT_ALLOWED', 405))]);
    expect(d).toMatchObject({ kind: 'break', sides: ['base'], how: 'pinned' });
  });

  it('files a valid create one side calls invalid (400) as an open choice, and one answered 422 as a break', () => {
    const request = { method: 'POST' as const, operationId: 'createPet', body: '{"name":"Rex","categoryId":1}' };
    expect(compare([answer('k#1', request, 400, error('NAME_TAKEN', 400))], [answer('k#1', request, 201, { id: 1, name: 'Rex', categoryId: 1 })])[0]).toMatchObject({ kind: 'choice', field: 'refusedValues' });
    expect(compare([answer('k#1', request, 422, error('NAME_TAKEN', 422))], [answer('k#1', request, 201, { id: 1, name: 'Rex', categoryId: 1 })])[0]).toMatchObject({ kind: 'break', sides: ['base'], how: 'pinned' });
  });

  it('files a create body both sides refuse under the reason the base side\'s learnt profile refuses it for, with the base\'s code', () => {
    const learnt = { maxNameLength: 50, categoryIdRange: { minimum: 1 }, unknownBodyFields: 'refused' as const };
    const refusedBoth = (body: string, intent: 'valid' | 'edge', code: string) => comparePairs(pairAnswers([answer('k#1', { method: 'POST', operationId: 'createPet', intent, body }, 400, error(code, 400))], [answer('k#1', { method: 'POST', operationId: 'createPet', intent, body }, 400, error('INVALID_BODY', 400))]), noFailure, learnt)[0];
    expect(refusedBoth(JSON.stringify({ name: 'n'.repeat(70), categoryId: 1 }), 'edge', 'NAME_TOO_LONG')).toMatchObject({ kind: 'choice', field: 'errors.nameTooLong', baseValue: { status: 400, code: 'NAME_TOO_LONG' } });
    expect(refusedBoth('{"name":"Rex","categoryId":0}', 'edge', 'UNKNOWN_CATEGORY')).toMatchObject({ field: 'errors.categoryOutOfRange' });
    // Past 2^53 - 1, read exactly: outside a learnt maximum of 2^53 - 1.
    expect(comparePairs(pairAnswers([answer('k#1', { method: 'POST', operationId: 'createPet', intent: 'edge', body: '{"name":"Rex","categoryId":9007199254740993}' }, 400, error('UNKNOWN_CATEGORY', 400))], [answer('k#1', { method: 'POST', operationId: 'createPet', intent: 'edge', body: '{"name":"Rex","categoryId":9007199254740993}' }, 400, error('INVALID_BODY', 400))]), noFailure, { categoryIdRange: { maximum: 9007199254740991 } })[0]).toMatchObject({ field: 'errors.categoryOutOfRange' });
    expect(refusedBoth('{"name":"Rex","categoryId":1,"colour":"brown"}', 'valid', 'UNKNOWN_FIELD')).toMatchObject({ field: 'errors.unknownBodyField' });
    // A name within the learnt length, and a body NewPet's schema refuses, stay invalidBody; without a learnt profile, every refusal is.
    expect(refusedBoth('{"name":"","categoryId":1}', 'edge', 'NAME_EMPTY')).toMatchObject({ field: 'errors.invalidBody' });
    expect(refusedBoth(JSON.stringify({ name: 'n'.repeat(70), categoryId: '1' }), 'edge', 'VALIDATION_FAILED')).toMatchObject({ field: 'errors.invalidBody' });
    expect(compare([answer('k#1', { method: 'POST', operationId: 'createPet', intent: 'edge', body: '{"name":"Rex","categoryId":0}' }, 400, error('UNKNOWN_CATEGORY', 400))], [answer('k#1', { method: 'POST', operationId: 'createPet', intent: 'edge', body: '{"name":"Rex","categoryId":0}' }, 400, error('INVALID_BODY', 400))])[0]).toMatchObject({ field: 'errors.invalidBody' });
  });

  it('compares a pet created without a status through the model: its status is the default status; its id is meaningless', () => {
    const request = { method: 'POST' as const, operationId: 'createPet', body: '{"name":"Rex","categoryId":3}' };
    const found = compare([answer('k#1', request, 201, { id: 7, name: 'Rex', categoryId: 3 })], [answer('k#1', { ...request, body: '{"name":"Rex","categoryId":1}' }, 201, { id: 251, name: 'Rex', categoryId: 1, status: 'available' })]);
    expect(found.map((d) => [d.kind, d.field])).toEqual([['meaningless', 'ids'], ['choice', 'defaultStatus']]);
    expect(found[1]!.baseValue).toBeNull();
  });

  it('does not cascade: a read of a pet one side refused to create follows from that difference, and reads of other pets are which pets', () => {
    const create = { method: 'POST' as const, operationId: 'createPet', intent: 'edge' as const, body: JSON.stringify({ name: 'x'.repeat(60), categoryId: 1 }) };
    const base = [answer('c#1', create, 201, { id: 7, name: 'x'.repeat(60), categoryId: 1 }), answer('r#1', { path: '/pets/7', operationId: 'getPet' }, 404, error('GONE', 404), {}, 'c#1'), answer('n#1', { path: '/pets/8', operationId: 'getPet' }, 404, error('PET_NOT_FOUND', 404))];
    const against = [answer('c#1', create, 400, error('INVALID_BODY', 400)), answer('r#1', { path: '/pets/3', operationId: 'getPet' }, 200, { id: 3, name: 'Old', categoryId: 1 }, {}, 'listed'), answer('n#1', { path: '/pets/4', operationId: 'getPet' }, 200, { id: 4, name: 'Old', categoryId: 1 })];
    const found = compare(base, against);
    expect(found.map((d) => [d.key, d.kind, d.field])).toEqual([
      ['c#1', 'choice', 'maxNameLength'],
      ['r#1', 'meaningless', 'follows from an earlier difference'],
      ['n#1', 'meaningless', 'which pets exist'],
    ]);
  });

  it('names the headers a choice concerns: WWW-Authenticate on a 401, Retry-After\'s form on a 429, Deprecation on getPet', () => {
    const keyless = { auth: 'none' as const, intent: 'unauthenticated' as const };
    expect(compare([answer('k#1', keyless, 401, error('UNAUTHORIZED', 401))], [answer('k#1', keyless, 401, error('UNAUTHORIZED', 401), { 'www-authenticate': 'Bearer' })]).map((d) => d.field)).toEqual(['wwwAuthenticate']);
    expect(compare([answer('k#1', {}, 429, error('RATE_LIMITED', 429), { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' })], [answer('k#1', {}, 429, error('RATE_LIMITED', 429), { 'retry-after': '30' })]).map((d) => [d.field, d.baseValue])).toEqual([['retryAfter', 'http-date']]);
    const get = { path: '/pets/1', operationId: 'getPet' };
    const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'sold' };
    expect(compare([answer('k#1', get, 200, pet, {}, 'listed')], [answer('k#1', get, 200, pet, { deprecation: '@1767225600' }, 'listed')]).map((d) => d.field)).toEqual(['deprecation']);
  });

  it('names Sunset on getPet and Location on a 201 with the base side\'s value as a profile writes it', () => {
    const get = { path: '/pets/1', operationId: 'getPet' };
    const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'sold' };
    expect(compare([answer('k#1', get, 200, pet, {}, 'listed')], [answer('k#1', get, 200, pet, { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, 'listed')]).map((d) => [d.field, d.baseValue])).toEqual([['sunset', null]]);
    const create = { method: 'POST' as const, operationId: 'createPet', body: '{"name":"Rex","categoryId":1,"status":"sold"}' };
    expect(compare([answer('k#1', create, 201, pet)], [answer('k#1', create, 201, pet, { location: '/v1/pets/1' })]).filter((d) => d.kind === 'choice').map((d) => [d.field, d.baseValue])).toEqual([['location', false]]);
  });

  it('files a categoryId of 0 or below under categoryIdRange, and one past 2^53 under the range of int64 values', () => {
    const create = (categoryId: string) => ({ method: 'POST' as const, path: '/pets', auth: 'key' as const, intent: 'edge' as const, operationId: 'createPet', body: `{"name":"Rex","categoryId":${categoryId}}` });
    expect(situationOf(create('0'))).toMatchObject({ field: 'categoryIdRange', error: 'invalidBody' });
    expect(situationOf(create('-1'))).toMatchObject({ field: 'categoryIdRange' });
    expect(situationOf(create('9007199254740993'))).toMatchObject({ field: 'int64Range' });
    expect(situationOf(create('-9223372036854775808'))).toMatchObject({ field: 'int64Range' });
  });

  it('finds 200 against 404 for an id no side is known to have meaningless (which pets), and a 429 on one side only the quota\'s doing', () => {
    const get = { path: '/pets/99', operationId: 'getPet' };
    expect(compare([answer('k#1', get, 200, { id: 99, name: 'A', categoryId: 1 })], [answer('k#1', get, 404, error('PET_NOT_FOUND', 404))]).map((d) => [d.kind, d.field])).toEqual([['meaningless', 'which pets exist']]);
    expect(compare([answer('k#1', {}, 429, error('RATE_LIMITED', 429))], [answer('k#1', {}, 200, [])]).map((d) => [d.kind])).toEqual([['meaningless']]);
  });

  it('reports a difference no known choice names with both sides\' behaviour, never drops it', () => {
    const [d] = compare([answer('k#1', {}, 200, [], { 'content-type': 'application/problem+json' })], [answer('k#1', {}, 200, [])]);
    expect(d).toMatchObject({ kind: 'unnamed', field: 'Content-Type', base: 'application/problem+json', against: 'application/json' });
  });

  it('finds ids, which pets, messages and media-type parameters meaningless', () => {
    const found = compare([answer('k#1', {}, 200, [{ id: 1, name: 'A', categoryId: 1 }], { 'content-type': 'application/json; charset=utf-8' })], [answer('k#1', {}, 200, [{ id: 9, name: 'B', categoryId: 2 }])]);
    expect(found.map((d) => [d.kind, d.field])).toEqual([['meaningless', 'Content-Type parameters'], ['meaningless', 'which pets']]);
  });
});

describe('the situation of a generated request', () => {
  it('pins 401 without a key on a documented operation, and leaves an unlisted path without a key open', () => {
    expect(situationOf({ method: 'GET', path: '/pets', auth: 'none', intent: 'unauthenticated', operationId: 'listPets' })).toMatchObject({ allowed: [401], error: 'unauthorized' });
    expect(situationOf({ method: 'DELETE', path: '/pets', auth: 'none', intent: 'unauthenticated', operationId: 'unlisted' })).toMatchObject({ field: 'keylessUnlisted' });
  });

  it('tells a body that is not JSON (status open) from one NewPet\'s schema refuses (400 pinned)', () => {
    expect(situationOf({ method: 'POST', path: '/pets', auth: 'key', intent: 'invalid', operationId: 'createPet', body: '{"name":' })).toMatchObject({ field: 'errors.malformedJson' });
    expect(situationOf({ method: 'POST', path: '/pets', auth: 'key', intent: 'invalid', operationId: 'createPet', body: '{"categoryId":1}' })).toMatchObject({ allowed: [400], error: 'invalidBody' });
  });
});

describe('the rows a drift report names', () => {
  it('are each a row of docs/contract-choices.md', () => {
    const rows = new Set(readFileSync(projectPath('docs', 'contract-choices.md'), 'utf8').split('\n').filter((l) => l.startsWith('| ')).map((l) => l.split(' | ')[0]!.slice(2).trim()));
    const named = [...driftFields.map((f) => f.row), ...Object.values(generatedChoices).map((c) => c.row)];
    expect(named.filter((row) => !rows.has(row))).toEqual([]);
  });
});
