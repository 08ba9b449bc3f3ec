// A deployment that keeps the contract while choosing differently from the mock wherever the
// contract leaves the choice open. The suite must pass it.
import type { MockOptions } from '../../mock/app.ts';
import { isCreate, isGetPet, isList, json, path, query, withJson, type Req, type Res, type Transform } from './deployment.ts';

/** Ids far above the mock's, still exact in JSON. */
const OFFSET = 2 ** 40;

const shiftPet = (pet: Record<string, unknown>) => ({ ...pet, id: (pet.id as number) + OFFSET, tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' });

function fromClient(req: Req): Req {
  if (!isGetPet(req)) return req;
  const id = Number(path(req).split('/').pop());
  // An id below the offset is none of ours: send the mock one it surely lacks.
  const inner = Number.isSafeInteger(id) && id >= OFFSET ? id - OFFSET : 999_999_999;
  return { ...req, url: `/v1/pets/${inner}` };
}

function toClient(req: Req, res: Res): Res {
  const headers: Record<string, string> = { ...res.headers, 'content-type': 'application/json' };
  delete headers['www-authenticate'];
  if (headers['retry-after']) headers['retry-after'] = new Date(Date.now() + Number(headers['retry-after']) * 1000).toUTCString();
  if (headers.location) headers.location = `/v1/pets/${Number(headers.location.split('/').pop()) + OFFSET}`;
  const body = json(res);
  if (res.status >= 400) {
    const error = body as { code: string; status: number };
    // Its own error codes and messages, and 422 for a bad query parameter: any 4xx is legal there.
    const status = error.code === 'INVALID_QUERY_PARAMETER' ? 422 : res.status;
    return { status, headers, body: JSON.stringify({ code: `err.${error.code.toLowerCase()}`, message: 'The request failed.', status }) };
  }
  if (isList(req) && Array.isArray(body)) {
    // Its own order: newest first within the page.
    return withJson({ ...res, headers }, body.map(shiftPet).reverse());
  }
  if ((isGetPet(req) || isCreate(req)) && body) return withJson({ ...res, headers }, shiftPet(body as Record<string, unknown>));
  return { ...res, headers };
}

export const legalChoices: { transform: Transform; mockOptions: MockOptions } = {
  // No default status: a pet created without one has none.
  mockOptions: { defaultStatus: null },
  transform: async (req, forward) => {
    // It does not serve the store orders the contract only mentions.
    if (path(req) === '/v1/store/orders') {
      const res = await forward({ ...req, url: '/v1/no-such-route' });
      return toClient(req, res);
    }
    void query;
    return toClient(req, await forward(fromClient(req)));
  },
};
