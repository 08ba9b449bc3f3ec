import { beforeEach, describe, expect, it } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import { SpecValidators } from '../specValidators.ts';
import { judgeStatusCodes } from './judgeStatusCodes.ts';
import { judgeGetPet, knownPetCase } from './judgeGetPetCases.ts';
import { isRemovedGetPet } from './removedOperation.ts';
import { errorBody, ex, resetSeq } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

const after = 'Thu, 05 Dec 2030 00:00:00 GMT';
const gone = (status: number, date?: string, path = '/pets/1') => ex({ path, status, headers: date ? { date } : {}, body: errorBody(status) });

describe('getPet after its announced removal (5 December 2030)', () => {
  it('is gone when answered 410 or 404 on or after that day, by the answer\'s Date, else when it was sent', () => {
    expect(isRemovedGetPet(gone(410, after))).toBe(true);
    expect(isRemovedGetPet(gone(404, 'Wed, 04 Dec 2030 10:00:00 GMT'))).toBe(true);
    expect(isRemovedGetPet(ex({ path: '/pets/1', status: 410, sentAt: Date.UTC(2031, 0, 1), body: errorBody(410) }))).toBe(true);
  });

  it('is not gone before, nor for another status or operation', () => {
    expect(isRemovedGetPet(gone(410))).toBe(false);
    expect(isRemovedGetPet(gone(410, 'Wed, 04 Dec 2030 09:59:59 GMT'))).toBe(false);
    expect(isRemovedGetPet(gone(400, after))).toBe(false);
    expect(isRemovedGetPet(gone(410, after, '/pets'))).toBe(false);
  });

  it('holds a 410 then as a documented status, and fails one before', async () => {
    const validators = new SpecValidators(await testSpec());
    expect(judgeStatusCodes(gone(410, after), validators).map((j) => [j.rule, j.outcome])).toEqual([['status.no-5xx', 'held'], ['status.documented', 'held']]);
    expect(judgeStatusCodes(gone(410), validators).map((j) => [j.rule, j.outcome])).toEqual([['status.documented', 'failure']]);
  });

  it('leaves the known pet\'s fetch inconclusive then, saying why', async () => {
    const facts = { validators: new SpecValidators(await testSpec()), knownPets: [{ id: 1, idText: '1', name: 'Rex', categoryId: 2 }], probeMaxRequests: 3 };
    const [judged] = judgeGetPet([{ ...gone(410, after), case: knownPetCase }], facts);
    expect(judged).toMatchObject({ rule: 'get-pet.known', outcome: 'inconclusive' });
    expect(judged!.message).toContain('after 5 December 2030, getPet\'s announced removal');
    expect(judgeGetPet([{ ...gone(404), case: knownPetCase }], facts).map((j) => j.outcome)).toEqual(['failure']);
  });
});
