import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { judgeData, keylessMarker, refusedMarker } from './judgeData.ts';
import { errorBody, ex, failureLines, failuresOf, freshState, heldOn, judgementsOf, listJson, ofRule, petJson, resetSeq, viewOf, type AuthSpec } from './testing/modelExchanges.ts';

type Pet = Parameters<typeof petJson>[0];

beforeEach(resetSeq);

/** POST /pets sending `sent` (a NewPet as JSON text or an object), answered 201 with `answered`. */
const post = (sent: string | object, answered: Pet | string, options: { status?: number; auth?: AuthSpec } = {}) =>
  ex({ method: 'POST', path: '/pets', auth: options.auth ?? 'key', requestBody: sent, status: options.status ?? 201, body: typeof answered === 'string' ? answered : petJson(answered) });
/** GET /pets/{id} answered with `answered` (a Pet) or an Error. */
const get = (id: string | number, answered: Pet | undefined, status = answered ? 200 : 404) =>
  ex({ method: 'GET', path: `/pets/${id}`, status, body: answered ? petJson(answered) : errorBody(status, 'NOT_FOUND') });
/** GET /pets with `query`, answered 200 with `pets`. */
const list = (query: string, pets: Pet[]) => ex({ method: 'GET', path: `/pets${query}`, status: 200, body: listJson(pets) });

/** Judges one answer alone, against a model that knows nothing yet. */
const alone = (exchange: Exchange) => judgeData(exchange, viewOf(exchange), freshState());

describe('data.created-as-sent: a 201 holds the pet as sent', () => {
  it('holds a 201 that answers the name, categoryId and status sent, with an id', () => {
    const judged = alone(post({ name: 'Rex', categoryId: 3, status: 'pending' }, { id: 1, name: 'Rex', categoryId: 3, status: 'pending' }));
    expect(ofRule(judged, 'data.created-as-sent').map((j) => j.outcome)).toEqual(['held']);
    expect(failuresOf(judged)).toEqual([]);
  });

  it('holds a 201 with fields the contract does not list (extra fields are open)', () => {
    const judged = alone(post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 3, extra: { tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' } }));
    expect(ofRule(judged, 'data.created-as-sent').map((j) => j.outcome)).toEqual(['held']);
  });

  it('holds a 201 with any status, or none, for a pet sent without one (the default is open)', () => {
    expect(failuresOf(alone(post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 3, status: 'pending' })))).toEqual([]);
    expect(failuresOf(alone(post({ name: 'Rex', categoryId: 3 }, { id: 2, name: 'Rex', categoryId: 3 })))).toEqual([]);
  });

  it('holds a 201 that escapes the non-ASCII characters of the name it answers (JSON may escape any character)', () => {
    const judged = alone(post({ name: 'Zoë 🐕', categoryId: 3 }, '{"id":1,"name":"Zo\\u00eb \\ud83d\\udc15","categoryId":3}'));
    expect(ofRule(judged, 'data.created-as-sent').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a 201 whose name differs from the name sent, naming both', () => {
    const [failure, ...more] = failuresOf(alone(post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'rex', categoryId: 3 })), 'data.created-as-sent');
    expect(more).toEqual([]);
    expect(failure!.message).toContain('name "rex" where "Rex"');
    expect(failure!.message).toContain('answered 201');
  });

  it('fails a 201 that lost a character outside the BMP from the name sent', () => {
    const [failure] = failuresOf(alone(post({ name: 'Rex 🐕', categoryId: 3 }, { id: 1, name: 'Rex ?', categoryId: 3 })), 'data.created-as-sent');
    expect(failure!.message).toContain('name "Rex ?" where "Rex 🐕"');
  });

  it('fails a 201 whose categoryId differs from the one sent', () => {
    const [failure] = failuresOf(alone(post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 4 })), 'data.created-as-sent');
    expect(failure!.message).toContain('categoryId 4 where 3 was known');
  });

  it('fails a 201 whose status differs from the one sent', () => {
    const [failure] = failuresOf(alone(post({ name: 'Rex', categoryId: 3, status: 'sold' }, { id: 1, name: 'Rex', categoryId: 3, status: 'available' })), 'data.created-as-sent');
    expect(failure!.message).toContain('status "available" where "sold" was known');
  });

  it('fails a 201 that drops the status sent', () => {
    const [failure] = failuresOf(alone(post({ name: 'Rex', categoryId: 3, status: 'sold' }, { id: 1, name: 'Rex', categoryId: 3 })), 'data.created-as-sent');
    expect(failure!.message).toContain('status (none) where "sold" was known');
  });

  it('fails a 201 whose categoryId past 2^53 is off by one from the one sent', () => {
    const [failure] = failuresOf(alone(post('{"name":"Rex","categoryId":9007199254740993}', { id: 1, name: 'Rex', categoryId: '9007199254740992' })), 'data.created-as-sent');
    expect(failure!.message).toContain('categoryId 9007199254740992 where 9007199254740993 was known');
  });

  it('does not judge a create refused with a 4xx, nor one sent without the key', () => {
    expect(alone(post({ name: 'Rex' }, JSON.stringify(errorBody(400)), { status: 400 }))).toEqual([]);
    expect(alone(post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'other', categoryId: 9 }, { auth: 'none' }))).toEqual([]);
  });
});

describe('data.new-id: a create gets an id no other pet has', () => {
  it('holds creates that get distinct ids', () => {
    const judged = judgementsOf([post({ name: 'A', categoryId: 1 }, { id: 1, name: 'A', categoryId: 1 }), post({ name: 'B', categoryId: 1 }, { id: 2, name: 'B', categoryId: 1 })]);
    expect(ofRule(judged, 'data.new-id').map((j) => j.outcome)).toEqual(['held', 'held']);
  });

  it('fails a create answered with the id an earlier create got, naming the id, the pet and the earlier exchange', () => {
    const judged = judgementsOf([post({ name: 'A', categoryId: 1 }, { id: 7, name: 'A', categoryId: 1 }), post({ name: 'B', categoryId: 1 }, { id: 7, name: 'B', categoryId: 1 })]);
    const [failure, ...more] = failuresOf(judged, 'data.new-id');
    expect(more).toEqual([]);
    expect(failure!.exchange!.seq).toBe(2);
    expect(failure!.message).toContain('id 7, which pet "A" already has (#1)');
    expect(failure!.related).toEqual([1]);
  });

  it('fails a create answered with the id of a pet the run only listed', () => {
    const judged = judgementsOf([list('', [{ id: 5, name: 'Old', categoryId: 1, status: 'sold' }]), post({ name: 'New', categoryId: 1 }, { id: 5, name: 'New', categoryId: 1 })]);
    expect(failuresOf(judged, 'data.new-id')[0]!.message).toContain('id 5, which pet "Old" already has');
  });

  it('holds two creates whose ids differ only past 2^53 (9007199254740993 is not 9007199254740992)', () => {
    const judged = judgementsOf([
      post({ name: 'A', categoryId: 1 }, { id: '9007199254740992', name: 'A', categoryId: 1 }),
      post({ name: 'B', categoryId: 1 }, { id: '9007199254740993', name: 'B', categoryId: 1 }),
    ]);
    expect(ofRule(judged, 'data.new-id').map((j) => j.outcome)).toEqual(['held', 'held']);
  });

  it('fails parallel creates answered with one id', () => {
    const judged = judgementsOf([
      ex({ method: 'POST', requestBody: { name: 'A', categoryId: 1 }, status: 201, body: petJson({ id: 9, name: 'A', categoryId: 1 }), burst: 1 }),
      ex({ method: 'POST', requestBody: { name: 'B', categoryId: 1 }, status: 201, body: petJson({ id: 9, name: 'B', categoryId: 1 }), burst: 1 }),
    ]);
    expect(failuresOf(judged, 'data.new-id')).toHaveLength(1);
  });
});

describe('data.read-back: what is read back equals what the run knows of that id', () => {
  it('holds a created pet read back by its id and in a list as it was sent', () => {
    const created = post({ name: 'Rex 🐕', categoryId: 3, status: 'available' }, { id: 1, name: 'Rex 🐕', categoryId: 3, status: 'available' });
    const read = get(1, { id: 1, name: 'Rex 🐕', categoryId: 3, status: 'available' });
    const listed = list('', [{ id: 1, name: 'Rex 🐕', categoryId: 3, status: 'available' }]);
    const judged = judgementsOf([created, read, listed]);
    expect(failureLines(judged)).toEqual([]);
    expect(heldOn(judged, read)).toContain('data.read-back');
    expect(heldOn(judged, listed)).toContain('data.read-back');
  });

  it('fails a read-back whose name lost a character outside the BMP', () => {
    const judged = judgementsOf([post({ name: 'Rex 🐕', categoryId: 3 }, { id: 1, name: 'Rex 🐕', categoryId: 3, status: 'available' }), get(1, { id: 1, name: 'Rex ', categoryId: 3, status: 'available' })]);
    const [failure, ...more] = failuresOf(judged, 'data.read-back');
    expect(more).toEqual([]);
    expect(failure!.exchange!.seq).toBe(2);
    expect(failure!.message).toContain('pet 1 name "Rex " where "Rex 🐕"');
    expect(failure!.related).toEqual([1]);
  });

  it('fails a list that gives a created pet another categoryId', () => {
    const judged = judgementsOf([post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 3, status: 'available' }), list('', [{ id: 1, name: 'Rex', categoryId: 30, status: 'available' }])]);
    expect(failuresOf(judged, 'data.read-back')[0]!.message).toContain('categoryId 30 where 3 was known');
  });

  it('fails a read-back that gives a pet another status than the one it was created with', () => {
    const judged = judgementsOf([post({ name: 'Rex', categoryId: 3, status: 'pending' }, { id: 1, name: 'Rex', categoryId: 3, status: 'pending' }), get(1, { id: 1, name: 'Rex', categoryId: 3, status: 'sold' })]);
    expect(failuresOf(judged, 'data.read-back')[0]!.message).toContain('status "sold" where "pending" was known');
  });

  it('fails a pet listed twice in a run with another name the second time (first read fixes it)', () => {
    const judged = judgementsOf([list('', [{ id: 4, name: 'Bella', categoryId: 1, status: 'available' }]), list('?limit=5', [{ id: 4, name: 'bella', categoryId: 1, status: 'available' }])]);
    const [failure] = failuresOf(judged, 'data.read-back');
    expect(failure!.message).toContain('name "bella" where "Bella"');
    expect(failure!.related).toEqual([1]);
  });

  it('holds lists in any order, with extra fields on their pets', () => {
    const a = { id: 1, name: 'A', categoryId: 1, status: 'available' };
    const b = { id: 2, name: 'B', categoryId: 2, status: 'sold' };
    const judged = judgementsOf([
      post({ name: 'A', categoryId: 1, status: 'available' }, a),
      post({ name: 'B', categoryId: 2, status: 'sold' }, b),
      list('', [{ ...b, extra: { tags: ['friendly'], category: { id: 2 } } }, { ...a, extra: { createdAt: '2026-01-01T00:00:00Z' } }]),
      get(2, { ...b, extra: { photoUrls: [] } }),
    ]);
    expect(failureLines(judged)).toEqual([]);
    expect(ofRule(judged, 'data.read-back').filter((j) => j.outcome === 'held')).toHaveLength(3);
  });

  it('holds a pet created without status, answered with a default, to that default', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 3, status: 'pending' }),
      get(1, { id: 1, name: 'Rex', categoryId: 3, status: 'pending' }),
      get(1, { id: 1, name: 'Rex', categoryId: 3, status: 'sold' }),
    ]);
    const failures = failuresOf(judged, 'data.read-back');
    expect(failures.map((f) => f.exchange!.seq)).toEqual([3]);
    expect(failures[0]!.message).toContain('status "sold" where "pending" was known');
  });

  it('holds a pet created without status and answered without one to having none while reads agree', () => {
    const judged = judgementsOf([post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 3 }), get(1, { id: 1, name: 'Rex', categoryId: 3 }), list('', [{ id: 1, name: 'Rex', categoryId: 3 }])]);
    expect(failureLines(judged)).toEqual([]);
  });

  it('lets a pet created without status (its 201 showing none) be read back once with any status, then holds it to that status', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 1, name: 'Rex', categoryId: 3 }),
      get(1, { id: 1, name: 'Rex', categoryId: 3, status: 'available' }),
      list('', [{ id: 1, name: 'Rex', categoryId: 3, status: 'available' }]),
      get(1, { id: 1, name: 'Rex', categoryId: 3, status: 'sold' }),
    ]);
    expect(failuresOf(judged, 'data.read-back').map((f) => f.exchange!.seq)).toEqual([4]);
  });

  it('reads ids past 2^53 exactly: pet 9007199254740993 is not pet 9007199254740992', () => {
    const judged = judgementsOf([
      post({ name: 'Big', categoryId: 1, status: 'available' }, { id: '9007199254740993', name: 'Big', categoryId: 1, status: 'available' }),
      list('', [
        { id: '9007199254740992', name: 'Other', categoryId: 2, status: 'sold' },
        { id: '9007199254740993', name: 'Big', categoryId: 1, status: 'available' },
      ]),
      get('9007199254740993', { id: '9007199254740993', name: 'Big', categoryId: 1, status: 'available' }),
    ]);
    expect(failureLines(judged)).toEqual([]);
    expect(ofRule(judged, 'data.read-back').filter((j) => j.outcome === 'held')).toHaveLength(2);
  });

  it('fails a list that gives pet 9007199254740993 the name of pet 9007199254740992', () => {
    const judged = judgementsOf([
      post({ name: 'Big', categoryId: 1, status: 'available' }, { id: '9007199254740993', name: 'Big', categoryId: 1, status: 'available' }),
      list('', [{ id: '9007199254740993', name: 'Other', categoryId: 2, status: 'sold' }]),
    ]);
    const [failure] = failuresOf(judged, 'data.read-back');
    expect(failure!.message).toContain('pet 9007199254740993 name "Other" where "Big"');
  });

  it('forgets a pet a DELETE with the key removed: a later 404 and a new pet under its id are no failure', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 5, name: 'Rex', categoryId: 3, status: 'available' }),
      ex({ method: 'DELETE', path: '/pets/5', status: 204 }),
      get(5, undefined),
      post({ name: 'Max', categoryId: 4 }, { id: 5, name: 'Max', categoryId: 4, status: 'available' }),
    ]);
    expect(failureLines(judged)).toEqual([]);
  });

  it('forgets a pet a PUT with the key changed: reading it back changed is no failure', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 5, name: 'Rex', categoryId: 3, status: 'available' }),
      ex({ method: 'PUT', path: '/pets/5', requestBody: { name: 'Rexy', categoryId: 3, status: 'sold' }, status: 200, body: petJson({ id: 5, name: 'Rexy', categoryId: 3, status: 'sold' }) }),
      get(5, { id: 5, name: 'Rexy', categoryId: 3, status: 'sold' }),
    ]);
    expect(failureLines(judged)).toEqual([]);
  });

  it('keeps a pet a DELETE without the key tried to remove (refused), and still judges it', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 5, name: 'Rex', categoryId: 3, status: 'available' }),
      ex({ method: 'DELETE', path: '/pets/5', auth: 'none', status: 401, body: errorBody(401) }),
      get(5, undefined),
    ]);
    expect(failuresOf(judged).filter((f) => f.rule.startsWith('data.')).map((f) => f.rule)).toEqual(['data.created-found']);
  });

  it('keeps a pet a DELETE with the key did not remove (405)', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 5, name: 'Rex', categoryId: 3, status: 'available' }),
      ex({ method: 'DELETE', path: '/pets/5', status: 405, body: errorBody(405) }),
      get(5, { id: 5, name: 'Max', categoryId: 3, status: 'available' }),
    ]);
    expect(failuresOf(judged).filter((f) => f.rule.startsWith('data.')).map((f) => f.rule)).toEqual(['data.read-back']);
  });

  it('forgets the statuses, and only them, after a write with the key to an endpoint the contract does not show', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3, status: 'available' }, { id: 5, name: 'Rex', categoryId: 3, status: 'available' }),
      ex({ method: 'POST', path: '/store/orders', status: 201, requestBody: '{"petId":5}', body: '{}' }),
      get(5, { id: 5, name: 'Rex', categoryId: 3, status: 'sold' }),
      get(5, { id: 5, name: 'Rax', categoryId: 3, status: 'sold' }),
    ]);
    expect(failuresOf(judged).filter((f) => f.rule.startsWith('data.')).map((f) => f.rule)).toEqual(['data.read-back']);
    expect(failuresOf(judged).find((f) => f.rule === 'data.read-back')?.message).toMatch(/Rax/);
  });

  it('forgets nothing for a POST to /pets/ served with the key, and still judges what it knew', () => {
    const judged = judgementsOf([
      post({ name: 'Rex', categoryId: 3 }, { id: 5, name: 'Rex', categoryId: 3, status: 'available' }),
      ex({ method: 'POST', path: '/pets/', status: 201, requestBody: '{"name":"Max","categoryId":3}', body: petJson({ id: 6, name: 'Max', categoryId: 3 }) }),
      get(5, { id: 5, name: 'Rax', categoryId: 3, status: 'available' }),
    ]);
    expect(failuresOf(judged).filter((f) => f.rule.startsWith('data.')).map((f) => f.rule)).toEqual(['data.read-back']);
  });

  it('judges nothing the key did not read: answers without the key and 429s teach and judge nothing', () => {
    const judged = judgementsOf([
      ex({ method: 'GET', path: '/pets', auth: 'none', status: 200, body: listJson([{ id: 1, name: 'A', categoryId: 1 }]) }),
      ex({ method: 'GET', path: '/pets', status: 429, body: listJson([{ id: 1, name: 'B', categoryId: 1 }]) }),
      list('', [{ id: 1, name: 'C', categoryId: 1 }]),
    ]);
    expect(failuresOf(judged, 'data.read-back')).toEqual([]);
  });
});

describe('data.one-id-one-pet: GET /pets/{petId} returns the pet with that id', () => {
  it('holds a getPet that answers the pet asked for', () => {
    expect(ofRule(alone(get(7, { id: 7, name: 'A', categoryId: 1 })), 'data.one-id-one-pet').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a getPet that answers another pet, naming both ids', () => {
    const [failure] = failuresOf(alone(get(7, { id: 8, name: 'A', categoryId: 1 })), 'data.one-id-one-pet');
    expect(failure!.message).toContain('returned the pet with id 8 for petId 7');
  });

  it('fails a getPet of 9007199254740993 that answers pet 9007199254740992 (the id read as a double)', () => {
    const [failure] = failuresOf(alone(get('9007199254740993', { id: '9007199254740992', name: 'A', categoryId: 1 })), 'data.one-id-one-pet');
    expect(failure!.message).toContain('id 9007199254740992 for petId 9007199254740993');
  });

  it('holds a getPet of 9007199254740993 that answers that pet exactly', () => {
    expect(failuresOf(alone(get('9007199254740993', { id: '9007199254740993', name: 'A', categoryId: 1 })))).toEqual([]);
  });

  it('holds a petId with leading zeros read as its number (left open)', () => {
    const judged = alone(get('007', { id: 7, name: 'A', categoryId: 1 }));
    expect(failuresOf(judged)).toEqual([]);
    expect(ofRule(judged, 'data.one-id-one-pet').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a getPet answered 200 with a pet without an id', () => {
    const [failure] = failuresOf(alone(ex({ path: '/pets/7', status: 200, body: { name: 'A', categoryId: 1 } })), 'data.one-id-one-pet');
    expect(failure!.message).toContain('id (none) for petId 7');
  });
});

describe('data.created-found: a pet the run created is found by its id', () => {
  it('holds a created pet found by its id', () => {
    const judged = judgementsOf([post({ name: 'A', categoryId: 1 }, { id: 3, name: 'A', categoryId: 1 }), get(3, { id: 3, name: 'A', categoryId: 1 })]);
    expect(ofRule(judged, 'data.created-found').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a 404 for a pet the run created, naming the pet and the create', () => {
    const judged = judgementsOf([post({ name: 'A', categoryId: 1 }, { id: 3, name: 'A', categoryId: 1 }), get(3, undefined)]);
    const [failure] = failuresOf(judged, 'data.created-found');
    expect(failure!.message).toContain('answered 404 for pet 3, which this run created (#1)');
    expect(failure!.related).toEqual([1]);
  });

  it('fails a 404 for a created pet past 2^53 asked by its exact id', () => {
    const judged = judgementsOf([post({ name: 'A', categoryId: 1 }, { id: '9007199254740993', name: 'A', categoryId: 1 }), get('9007199254740993', undefined)]);
    expect(failuresOf(judged, 'data.created-found')).toHaveLength(1);
  });

  it('holds a 404 for a pet the run only listed (another client may have removed it)', () => {
    const judged = judgementsOf([list('', [{ id: 3, name: 'A', categoryId: 1 }]), get(3, undefined)]);
    expect(ofRule(judged, 'data.created-found').map((j) => j.outcome)).toEqual(['held']);
  });

  it('says nothing of a 404 for a pet the run never saw', () => {
    expect(ofRule(alone(get(3, undefined)), 'data.created-found')).toEqual([]);
  });

  it('says nothing of a 404 for a created pet asked with a leading zero (looked up by its digits as text)', () => {
    const judged = judgementsOf([post({ name: 'A', categoryId: 1 }, { id: 3, name: 'A', categoryId: 1 }), get('03', undefined)]);
    expect(ofRule(judged, 'data.created-found')).toEqual([]);
  });
});

describe('data.list-unique: a list names each id once', () => {
  it('holds a list of distinct ids', () => {
    expect(ofRule(alone(list('', [{ id: 1 }, { id: 2 }, { id: 3 }])), 'data.list-unique').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a list that names an id twice, naming the id', () => {
    const [failure] = failuresOf(alone(list('', [{ id: 1 }, { id: 2 }, { id: 1 }])), 'data.list-unique');
    expect(failure!.message).toContain('lists the id 1 more than once');
  });

  it('tells ids past 2^53 apart: 9007199254740992 and 9007199254740993 are two ids', () => {
    expect(failuresOf(alone(list('', [{ id: '9007199254740992' }, { id: '9007199254740993' }])))).toEqual([]);
  });
});

describe('data.status-filter: a filtered list holds only that status', () => {
  const available = (id: number) => ({ id, name: `P${id}`, categoryId: 1, status: 'available' });

  it('holds a filtered list whose pets all have that status', () => {
    expect(ofRule(alone(list('?status=available', [available(1), available(2)])), 'data.status-filter').map((j) => j.outcome)).toEqual(['held']);
  });

  it('holds an empty filtered list', () => {
    expect(ofRule(alone(list('?status=sold', [])), 'data.status-filter').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a filtered list that holds a pet of another status, naming it', () => {
    const [failure] = failuresOf(alone(list('?status=available', [available(1), { id: 2, name: 'B', categoryId: 1, status: 'sold' }])), 'data.status-filter');
    expect(failure!.message).toContain('asked for status "available" and got 1 pet with another (first: id 2, status "sold")');
  });

  it('fails a filtered list spelled with the filter after limit and percent-encoded', () => {
    const [failure] = failuresOf(alone(list('?limit=5&status=%70ending', [{ id: 1, name: 'A', categoryId: 1, status: 'available' }])), 'data.status-filter');
    expect(failure!.message).toContain('asked for status "pending"');
  });

  it('fails a filtered list holding a pet without a status', () => {
    expect(failuresOf(alone(list('?status=sold', [{ id: 1, name: 'A', categoryId: 1 }])), 'data.status-filter')).toHaveLength(1);
  });

  it('fails, naming it, a filtered list whose pet has a number past 2^53 for a status (read back too)', () => {
    const judged = judgementsOf([
      post({ name: 'A', categoryId: 1, status: 'sold' }, { id: 1, name: 'A', categoryId: 1, status: 'sold' }),
      ex({ path: '/pets?status=sold', status: 200, body: '[{"id":1,"name":"A","categoryId":1,"status":9007199254740993}]' }),
    ]);
    expect(failuresOf(judged, 'data.status-filter')[0]!.message).toContain('status 9007199254740993)');
    expect(failuresOf(judged, 'data.read-back')[0]!.message).toContain('status "9007199254740993" where "sold" was known');
  });

  it('fails a near miss of a PetStatus answered with pets of the status it nearly names: a prefix, a list, another case, padding', () => {
    for (const query of ['?status=avail', '?status=available%2Csold', '?status=Available', '?status=available%20', '?status=%20available']) {
      const [failure, ...more] = failuresOf(alone(list(query, [available(1)])), 'data.status-filter');
      expect(more, query).toEqual([]);
      expect(failure!.message, query).toContain('is no PetStatus, so no pet has it: refuse it with a 4xx, or list none');
    }
  });

  it('holds a value that is no PetStatus answered with an empty list (the contract names no refusal for it)', () => {
    expect(ofRule(alone(list('?status=adopted', [])), 'data.status-filter').map((j) => j.outcome)).toEqual(['held']);
  });

  it('does not judge an empty status, which a deployment may read as no filter', () => {
    expect(ofRule(alone(list('?status=', [available(1)])), 'data.status-filter')).toEqual([]);
  });

  it('holds a repeated status answered with pets of one of its values, warns when they mix, fails a pet of neither', () => {
    expect(ofRule(alone(list('?status=sold&status=available', [available(1)])), 'data.status-filter').map((j) => j.outcome)).toEqual(['held']);
    const mixed = ofRule(alone(list('?status=sold&status=available', [available(1), { id: 2, name: 'B', categoryId: 1, status: 'sold' }])), 'data.status-filter');
    expect(mixed.map((j) => j.outcome)).toEqual(['warning']);
    expect(mixed[0]!.message).toContain('read the parameter as a list');
    const [failure] = failuresOf(alone(list('?status=sold&status=available', [{ id: 3, name: 'C', categoryId: 1, status: 'pending' }])), 'data.status-filter');
    expect(failure!.message).toContain('got 1 pet with neither (first: id 3, status "pending")');
  });
});

describe('data.limit-bound: limit bounds every list, 20 when absent', () => {
  const pets = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `P${i + 1}`, categoryId: 1, status: 'available' }));

  it('holds a list of 20 without limit, and of 100 with limit=100', () => {
    expect(ofRule(alone(list('', pets(20))), 'data.limit-bound').map((j) => j.outcome)).toEqual(['held']);
    expect(ofRule(alone(list('?limit=100', pets(100))), 'data.limit-bound').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a list of 21 without limit, naming the default', () => {
    const [failure] = failuresOf(alone(list('', pets(21))), 'data.limit-bound');
    expect(failure!.message).toContain('returned 21 pets where no limit means the default of 20');
  });

  it('fails a list longer than its limit, whatever the parameter order', () => {
    expect(failuresOf(alone(list('?limit=2', pets(3))), 'data.limit-bound')[0]!.message).toContain('returned 3 pets where limit=2 allows at most 2');
    expect(failuresOf(alone(list('?status=available&limit=2', pets(3))), 'data.limit-bound')[0]!.message).toContain('limit=2 allows at most 2');
  });

  it('does not judge a limit outside 1 to 100 or not an integer (its answer is open)', () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=', '?limit=2&limit=3']) expect(ofRule(alone(list(query, pets(25))), 'data.limit-bound')).toEqual([]);
  });
});

describe('data.id-exact: a petId that is not an integer is not served', () => {
  it('holds an integer petId served', () => {
    expect(ofRule(alone(get(12, { id: 12, name: 'A', categoryId: 1 })), 'data.id-exact').map((j) => j.outcome)).toEqual(['held']);
  });

  it.each(['1.5', '12abc', '1e3', 'abc'])('fails the petId %s answered 200 with pet 12, naming it', (petId) => {
    const [failure] = failuresOf(alone(ex({ path: `/pets/${petId}`, status: 200, body: petJson({ id: 12, name: 'A', categoryId: 1 }) })), 'data.id-exact');
    expect(failure!.message).toContain(`for the petId ${JSON.stringify(petId)}, which is no integer, with pet 12`);
  });

  it.each(['0xc', '12e0', '+12', '12.0'])('only warns of the petId %s read as 12 and answered with pet 12, as a validator that coerces types reads it', (petId) => {
    const judged = ofRule(alone(ex({ path: `/pets/${petId}`, status: 200, body: petJson({ id: 12, name: 'A', categoryId: 1 }) })), 'data.id-exact');
    expect(judged.map((j) => j.outcome)).toEqual(['warning']);
    expect(judged[0]!.message).toContain(`read another spelling as the integer 12`);
  });

  it('does not judge a malformed petId refused with a 4xx', () => {
    expect(alone(ex({ path: '/pets/abc', status: 400, body: errorBody(400) }))).toEqual([]);
    expect(alone(ex({ path: '/pets/1.5', status: 404, body: errorBody(404) }))).toEqual([]);
  });
});

describe('auth.keyless-refused, as data: a refused create changes nothing', () => {
  it('fails a list that shows a pet only a create without the key sent, naming the refused request', () => {
    const name = `${keylessMarker}1`;
    const judged = judgementsOf([
      ex({ method: 'POST', auth: 'none', requestBody: { name, categoryId: 1 }, status: 401, body: errorBody(401, 'UNAUTHORIZED') }),
      list('', [{ id: 40, name, categoryId: 1, status: 'available' }]),
    ]);
    const [failure] = failuresOf(judged, 'auth.keyless-refused');
    expect(failure!.exchange!.seq).toBe(2);
    expect(failure!.message).toContain(`lists pet 40 named ${JSON.stringify(name)}, which only the request #1 sent without a valid key created`);
    expect(failure!.related).toEqual([1]);
  });

  it('does not fail a pet of an ordinary name a refused create also sent (a keyed request may send it)', () => {
    const judged = judgementsOf([
      ex({ method: 'POST', auth: 'Bearer wrong', requestBody: { name: 'Rex', categoryId: 1 }, status: 401, body: errorBody(401) }),
      list('', [{ id: 40, name: 'Rex', categoryId: 1, status: 'available' }]),
    ]);
    expect(failureLines(judged)).toEqual([]);
  });
});

describe('data.refused-unstored: a create refused with a 4xx adds no pet', () => {
  it('fails a list or a read that shows a pet only a refused create sent, naming the refused request', () => {
    const name = `${refusedMarker}status/unknown`;
    const judged = judgementsOf([
      post({ name, categoryId: 1, status: 'bogus' }, JSON.stringify({ code: 'INVALID', message: 'status', status: 400 }), { status: 400 }),
      list('?limit=100', [{ id: 40, name, categoryId: 1, status: 'bogus' }]),
      get(40, { id: 40, name, categoryId: 1, status: 'bogus' }),
    ]);
    const failures = failuresOf(judged, 'data.refused-unstored');
    expect(failures.map((f) => f.exchange!.seq)).toEqual([2, 3]);
    expect(failures[0]!.message).toContain(`lists pet 40 named ${JSON.stringify(name)}, a name only the create #1 sent, which was refused: a refused create added a pet`);
    expect(failures[0]!.related).toEqual([1]);
  });

  it('judges nothing of a refusal that says the key or the quota (401, 403, 429), nor of an ordinary name a refused create also sent', () => {
    const name = `${refusedMarker}status/unknown`;
    for (const status of [401, 403, 429]) {
      resetSeq();
      expect(failuresOf(judgementsOf([post({ name, categoryId: 1 }, JSON.stringify(errorBody(status)), { status }), list('', [{ id: 40, name, categoryId: 1 }])]), 'data.refused-unstored')).toEqual([]);
    }
    resetSeq();
    expect(failuresOf(judgementsOf([post({ name: 'Rex', categoryId: 1, status: 'bogus' }, JSON.stringify(errorBody(400)), { status: 400 }), list('', [{ id: 40, name: 'Rex', categoryId: 1 }])]), 'data.refused-unstored')).toEqual([]);
  });
});
