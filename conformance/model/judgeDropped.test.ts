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
    expect(failure!.message).toMatch(/^Requests without a key got their connections closed, on every try, with no answer: .*then a plain list: .*#2 GET \/pets \(200\) between them and #3 GET \/pets \(200\) after, with the key, were served\. The deployment is up and drops these requests\. A request without a valid key is owed a 401/);
  });

  it('judges nothing of requests with the key lost around answers without one, which a gateway may give while the service behind it is down, nor of a timeout', () => {
    expect(judgeDropped([lost('key', 1), lost('key', 2, droppedCases.plain)], [withKey(), withoutKey(), withoutKey()])).toEqual([]);
    resetSeq();
    const slow = { ...lost('anonymous', 2, droppedCases.plain), timedOut: true };
    expect(judgeDropped([lost('anonymous', 1), slow], [withKey(), withKey(), withKey()])).toEqual([]);
  });

  it('judges nothing where the answers around are no service with the key (a 401 or a 5xx)', () => {
    expect(judgeDropped([lost('anonymous', 1), lost('anonymous', 2, droppedCases.plain)], [withKey(), withKey(503), withKey(503)])).toEqual([]);
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

});
