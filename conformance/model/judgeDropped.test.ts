import { beforeEach, describe, expect, it } from 'vitest';
import type { Bucket, UnansweredRequest } from '../http/exchange.ts';
import { droppedCases } from '../http/confirmDropped.ts';
import { judgeDropped } from './judgeDropped.ts';
import { errorBody, ex, listJson, rate, resetSeq } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

/** A request given up after its last try, sent when `afterSeq` answers had come. */
const lost = (bucket: Bucket, afterSeq: number, c?: string): UnansweredRequest => ({
  checkId: 'auth',
  operationId: 'listPets',
  ...(c !== undefined ? { case: c } : {}),
  afterSeq,
  sentAt: 0,
  durationMs: 3,
  request: { method: 'GET', url: 'http://api.test/v1/pets?limit=1', headers: {} },
  error: 'GET http://api.test/v1/pets?limit=1 failed: other side closed',
  path: '/pets?limit=1',
  attempt: 3,
  bucket,
  givenUp: true,
});
const withKey = (status = 200) => ex({ status, headers: rate(status === 429 ? 0 : 5), body: status === 200 ? listJson([]) : errorBody(status) });
const withoutKey = () => ex({ auth: 'none', status: 401, body: errorBody(401) });

describe('wire.answered: a credential\'s requests dropped while the deployment answers others', () => {
  it('fails requests without a key lost on every try, the later the plain list, with requests with the key answered between and after, saying a 401 is owed', () => {
    const answers = [withKey(), withKey(), withKey()];
    const [failure] = judgeDropped([lost('anonymous', 1), lost('anonymous', 2, droppedCases.plain)], answers);
    expect(failure).toMatchObject({ rule: 'wire.answered', outcome: 'failure', operationId: 'listPets' });
    expect(failure!.message).toMatch(/^Requests without a key got no answer at all, on every try: .*then a plain list: .*#2 GET \/pets \(200\) between them and #3 GET \/pets \(200\) after, with another credential, were answered\. The deployment is up and drops these requests\. A request without a valid key is owed a 401/);
  });

  it('fails requests with the key dropped the same way, where a 429 is owed once over the limit', () => {
    const answers = [withKey(), withoutKey(), withoutKey()];
    expect(judgeDropped([lost('key', 1), lost('key', 2, droppedCases.plain)], answers)[0]!.message).toMatch(/Requests with the key got no answer .* a 429 once over the limit/);
  });

  it('judges nothing of an outage (nothing answered after), a blip (the credential answered between), or a later lost request that is not the plain list', () => {
    expect(judgeDropped([lost('anonymous', 1), lost('anonymous', 2, droppedCases.plain)], [withKey(), withKey()])).toEqual([]);
    resetSeq();
    expect(judgeDropped([lost('anonymous', 1), lost('anonymous', 3, droppedCases.plain)], [withKey(), withoutKey(), withKey(), withKey()])).toEqual([]);
    resetSeq();
    expect(judgeDropped([lost('anonymous', 1), lost('anonymous', 2)], [withKey(), withKey(), withKey()])).toEqual([]);
  });

  it('judges nothing where requests of another credential were lost too: a deployment that fails as it likes', () => {
    expect(judgeDropped([lost('key', 0), lost('anonymous', 1), lost('anonymous', 2, droppedCases.plain)], [withKey(), withKey(), withKey()])).toEqual([]);
  });

  it('judges nothing of a key refused with 429 before, whose ban may take any form', () => {
    expect(judgeDropped([lost('key', 1), lost('key', 2, droppedCases.plain)], [withKey(429), withoutKey(), withoutKey()])).toEqual([]);
  });
});
