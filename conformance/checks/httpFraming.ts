// The framing probe: a handful of requests on raw connections, where node:http would hide how each
// answer is framed. The bytes are judged by the model (judgeFraming.ts, the `framing.*` rules), and
// the exchanges by every other judge too, as any answer is.
import type { Check, CheckContext } from '../check.ts';
import type { WireApiRequest, WirePlan } from '../http/wireExchanges.ts';
import { judgeUnframable } from '../model/judgeFraming.ts';
import { knownCategoryIds } from '../model/runFacts.ts';

const operations = ['listPets', 'createPet', 'getPet', 'unlisted'] as const;
const json = { 'content-type': 'application/json' };

const get = (path: string, operationId: string, caseName: string, more: Partial<WireApiRequest> = {}): WireApiRequest => ({ method: 'GET', path, auth: 'key', operationId, intent: 'valid', version: '1.1', case: `http-framing/${caseName}`, ...more });

/**
 * The plans, in order: one kept-alive HTTP/1.1 connection (HEAD then GET, a POST chunked, a POST
 * split inside a character with Connection: close), two or three GETs pipelined, and one HTTP/1.0
 * GET. Eight requests with the key at most; under --read-only only GETs.
 */
export function framingPlans(ctx: Pick<CheckContext, 'options' | 'knownPets' | 'runMark'>): WirePlan[] {
  const readOnly = ctx.options.readOnly;
  const category = knownCategoryIds(ctx.knownPets())[0];
  // A create needs a category the deployment has: the contract lists none, and one may refuse another.
  const writes = !readOnly && category !== undefined;
  const newPet = (name: string) => `{"name":${JSON.stringify(`Framing ${ctx.runMark} ${name}`)},"categoryId":${category}}`;
  const keptAlive: WireApiRequest[] = [
    ...(readOnly ? [] : [{ ...get('/pets?limit=1', 'unlisted', 'keep-alive/head'), method: 'HEAD' as const }]),
    get('/pets?limit=1', 'listPets', 'keep-alive/get', readOnly ? { close: true } : {}),
    ...(writes
      ? [
          // 411 Length Required is a legal refusal of a chunked body (RFC 9112, 6.3): not a case that must be created.
          { method: 'POST' as const, path: '/pets', auth: 'key' as const, headers: json, body: newPet('chunked'), bodyAs: 'chunked' as const, operationId: 'createPet', intent: 'edge' as const, version: '1.1' as const, case: 'http-framing/keep-alive/post-chunked' },
          { method: 'POST' as const, path: '/pets', auth: 'key' as const, headers: json, body: newPet('Zoé split'), bodyAs: 'split' as const, close: true, operationId: 'createPet', intent: 'valid' as const, version: '1.1' as const, case: 'http-framing/keep-alive/post-split-close' },
        ]
      : []),
  ];
  if (!writes && !readOnly) keptAlive[keptAlive.length - 1] = { ...keptAlive[keptAlive.length - 1]!, close: true };
  const ids = ctx.knownPets().map((p) => p.idText);
  const pipelined: WireApiRequest[] =
    ids.length > 0
      ? [get(`/pets/${ids[0]}`, 'getPet', 'pipelined/get-pet'), get('/pets?limit=1', 'listPets', 'pipelined/list'), get(`/pets/${ids[1] ?? ids[0]}`, 'getPet', 'pipelined/get-pet')]
      : [get('/pets?limit=1', 'listPets', 'pipelined/list'), get('/pets?limit=2', 'listPets', 'pipelined/list')];
  // A refusal of HTTP/1.0 (426 Upgrade Required, as some gateways give) is the deployment's choice: any 2xx or 4xx, never a 5xx.
  const old = [get('/pets?limit=1', 'listPets', 'http-1.0/get', { version: '1.0', intent: 'edge' })];
  return [
    { pipelined: false, requests: keptAlive },
    { pipelined: true, requests: pipelined },
    { pipelined: false, requests: old },
  ];
}

export const httpFraming: Check = {
  id: 'http-framing',
  title: 'HTTP/1.x framing on raw connections: each answer ends where it says, the connection stays usable',
  severity: 'high',
  description:
    'A handful of requests written byte by byte on raw connections, where node:http would hide how answers are framed: HTTP/1.1 kept alive (HEAD then GET, ' +
    'a POST chunked, a POST split across writes inside a UTF-8 character, with Connection: close), two or three GETs pipelined, and one HTTP/1.0 GET. ' +
    'Content-Length equals the bytes that follow, chunked bodies are well formed and end, never both; an answer to HEAD has no body; HTTP/1.0 gets no ' +
    'chunked; a close asked for is made; after each answer the kept-alive connection carries the next, pipelined answers come whole and in order; a body ' +
    'sent chunked or split is read as sent. A deployment that closes after every answer leaves pipelining and reuse not reached, never failed.',
  operations,
  phase: 'active',
  guard: (ctx) => (ctx.sendWire ? undefined : 'the deployment is reached without sockets (in-process): the bytes on the wire cannot be seen'),
  async send(ctx, notes) {
    for (const plan of framingPlans(ctx)) {
      const outcome = await ctx.sendWire!(plan);
      for (const connection of outcome?.connections ?? []) {
        if (connection.error !== undefined && connection.requests.length === 0) notes.inconclusive(plan.requests[0]!.operationId, `no raw connection could be opened: ${connection.error}`, plan.requests[0]!.case);
      }
    }
  },
  judge: (input) => [...input.model.judgements, ...judgeUnframable(input.connections)],
  unreached: 'no answer on a raw connection reached its rules',
};
