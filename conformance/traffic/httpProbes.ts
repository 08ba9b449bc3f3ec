// The few requests HTTP's own rules need that the rest of the traffic does not send: conditional
// GETs with the validators a deployment just gave (and a tag it never gave), HEAD next to GET,
// a GET that accepts no content coding, and an unknown path with the key. Each answer is judged
// by the model (http-semantics); a deployment that gives no validators costs none of them.
import type { CheckContext } from '../check.ts';
import type { ApiRequest, Exchange } from '../http/exchange.ts';
import { parseEntityTag } from '../model/http/entityTag.ts';
import { parseHttpDate } from '../model/http/httpDate.ts';

type Send = (request: ApiRequest) => Promise<Exchange | undefined>;

/** A tag no deployment gives: a 304 to it says a condition was false that cannot be. */
const neverGiven = '"pets-conformance-never-given"';

export async function sendHttpProbes(ctx: CheckContext, send: Send, petId: string | undefined): Promise<void> {
  const probe = (path: string, more: Partial<ApiRequest> & Pick<ApiRequest, 'operationId'>, what: string) => send({ method: 'GET', path, auth: 'key', intent: 'valid', ...more, case: `generated/http/${what}` });
  // "Every API response carries these headers": a path no route serves is answered by the API too.
  await probe('/pets-conformance-unknown', { operationId: 'unlisted' }, 'unknown-path');
  // HEAD answers as GET would (RFC 9110, 9.3.2); none with --read-only, which sends only GETs.
  const headToo = async (path: string, operationId: string, what: string) => {
    const got = await probe(path, { operationId, headers: { 'accept-encoding': 'identity' } }, `${what}/get`);
    if (!ctx.options.readOnly) await probe(path, { method: 'HEAD', operationId: 'unlisted' }, `${what}/head`);
    return got;
  };
  await headToo('/pets?limit=1', 'listPets', 'list');
  if (petId === undefined) return;
  const path = `/pets/${petId}`;
  const got = await headToo(path, 'getPet', 'pet');
  if (got?.response.status !== 200) return;
  // Conditional GETs with what the deployment just said of the pet (RFC 9110, 13.1.2, 13.1.3).
  const etag = got.response.headers.etag;
  if (etag !== undefined && parseEntityTag(etag)) {
    await probe(path, { operationId: 'getPet', headers: { 'if-none-match': etag } }, 'pet/if-none-match/current');
    await probe(path, { operationId: 'getPet', headers: { 'if-none-match': neverGiven } }, 'pet/if-none-match/never-given');
    // The same tag as If-None-Match compares it, weakly (13.1.2): the other strength, and among others in a list.
    const tag = parseEntityTag(etag)!;
    await probe(path, { operationId: 'getPet', headers: { 'if-none-match': tag.weak ? tag.opaque : `W/${tag.opaque}` } }, 'pet/if-none-match/other-strength');
    await probe(path, { operationId: 'getPet', headers: { 'if-none-match': `${neverGiven}, ${etag}` } }, 'pet/if-none-match/in-a-list');
  }
  const modified = got.response.headers['last-modified'];
  if (modified !== undefined && parseHttpDate(modified)) await probe(path, { operationId: 'getPet', headers: { 'if-modified-since': modified } }, 'pet/if-modified-since');
}
