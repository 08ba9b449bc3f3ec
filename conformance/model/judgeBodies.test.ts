import { beforeEach, describe, expect, it } from 'vitest';
import { judgeContentType, judgeResponseSchema } from './judgeBodies.ts';
import { errorBody, ex, listJson, modelOptions, ofRule, petJson, rate, resetSeq } from './testing/modelExchanges.ts';
import type { Exchange } from '../http/exchange.ts';

beforeEach(resetSeq);

const { validators } = modelOptions();
const int64 = (exchange: Exchange) => ofRule(judgeResponseSchema(exchange, validators), 'body.int64');
const uint64 = '10664984093466381521';

describe('body.int64: the contract\'s integer fields are within int64, read losslessly', () => {
  it('holds a Pet whose extra field holds an unsigned 64-bit number past int64: only the fields the contract types integer are held to int64', () => {
    const list = ex({ status: 200, headers: rate(99), body: `[${petJson({ id: 1, name: 'Rex', categoryId: 2 }).replace('{', `{"revision":${uint64},`)},${petJson({ id: 2, name: 'Max', categoryId: 2, extra: { meta: { id: 1 } } }).replace('{"meta":{"id":1}', `{"meta":{"id":${uint64}}`)}]` });
    expect(list.response.value).toBeDefined();
    expect(int64(list).map((j) => j.outcome)).toEqual(['held']);
    const created = ex({ method: 'POST', requestBody: { name: 'Rex', categoryId: 2 }, status: 201, headers: rate(98), body: petJson({ id: 61, name: 'Rex', categoryId: 2, extra: { revision: 0 } }).replace('"revision":0', `"revision":${uint64}`) });
    expect(int64(created).map((j) => j.outcome)).toEqual(['held']);
    const refused = ex({ method: 'POST', requestBody: {}, status: 400, headers: rate(97), body: JSON.stringify(errorBody(400)).replace('{', `{"traceId":${uint64},`) });
    expect(int64(refused).map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails Pet.id and Pet.categoryId past int64 wherever they are in the answer, and an Error\'s status', () => {
    const list = ex({ status: 200, headers: rate(99), body: listJson([{ id: 1, name: 'Rex', categoryId: 2 }, { id: '9223372036854775808', name: 'Max', categoryId: '-9223372036854775809' }]) });
    expect(int64(list).map((j) => j.message)).toEqual([`GET http://api.test/v1/pets answered 200 with body[1].id 9223372036854775808, body[1].categoryId -9223372036854775809, beyond the int64 range the contract's integer fields are held to.`]);
    // One past int64, which a double rounds to 2^63: the schema's range lets it by, the lossless reading does not.
    const fetched = ex({ path: '/pets/1', status: 200, headers: rate(98), body: petJson({ id: 1, name: 'Rex', categoryId: '9223372036854775808' }) });
    expect(int64(fetched).map((j) => j.message)).toEqual([`GET http://api.test/v1/pets/1 answered 200 with body.categoryId 9223372036854775808, beyond the int64 range the contract's integer fields are held to.`]);
    const error = ex({ path: '/pets/1', status: 404, headers: rate(97), body: '{"code":"NOT_FOUND","message":"no","status":9223372036854775808}' });
    expect(int64(error).map((j) => j.message)).toEqual([`GET http://api.test/v1/pets/1 answered 404 with body.status 9223372036854775808, beyond the int64 range the contract's integer fields are held to.`]);
  });
});

describe('body.json: a body is JSON whatever the length of its number literals', () => {
  it('reads a Pet whose extra fields hold 420- and 200,000-digit numbers as the JSON it is', () => {
    for (const number of [`4.${'1'.repeat(418)}`, `9${'7'.repeat(199_999)}`]) {
      const pet = ex({ path: '/pets/60', status: 200, headers: rate(99), body: petJson({ id: 60, name: 'Rex', categoryId: 1 }).replace('{', `{"weightKg":${number},`) });
      expect(pet.response.json, `${number.length} characters`).toMatchObject({ id: 60, name: 'Rex', categoryId: 1 });
      expect(ofRule(judgeContentType(pet, validators), 'body.json').map((j) => j.outcome)).toEqual(['held']);
      expect(judgeResponseSchema(pet, validators).filter((j) => j.outcome !== 'held')).toEqual([]);
    }
  });
});
