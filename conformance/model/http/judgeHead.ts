// A HEAD that is served answers as GET would, without content (RFC 9110, 9.3.2): the status GET
// got, its header fields (a SHOULD: differences are warnings), and the contract's rate-limit
// headers, which every API response carries, and a Content-Length that is the length of GET's
// content (8.6). Whether HEAD is served at all is open.
import { broken, held, questionable, type Judgement } from '../judgement.ts';
import type { Answer } from './answerFields.ts';
import type { HttpMemory } from './httpMemory.ts';
import { getKey, isSuccess, rateLimitFields } from './requestKey.ts';
import { operationAsGet } from '../requestView.ts';

/**
 * The operations whose 200 to GET the contract shapes as a JSON object or array (Pets, Pet), so
 * `[]` or `{}` at the least: 2 octets. Not the store-orders listing, whose 200 it does not show
 * ("not shown"): any JSON text, `0` among them, may answer it.
 */
const SHAPED = new Set(['listPets', 'getPet']);
const LEAST_JSON = 2;

/** Fields a server may omit or change on HEAD: "determined only while generating the content" (9.3.2), or per connection. */
const mayDiffer = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'etag', 'last-modified', 'date', 'connection', 'keep-alive', 'digest', 'content-digest', 'repr-digest', 'content-md5', 'age', 'set-cookie', 'server-timing', 'vary']);

/** Refusals of a GET that HEAD, GET without content, must share: the URL's or the credential's, not the negotiation's. */
const refusedByUrl = new Set([400, 401, 403, 404, 410, 422]);

export function judgeHead(answer: Answer, memory: HttpMemory): Judgement[] {
  const { view, status, exchange, where } = answer;
  if (view.method !== 'HEAD' || !isSuccess(status)) return [];
  const out: Judgement[] = [];
  const missingLimits = rateLimitFields.filter((f) => answer.field(f) === undefined);
  if (missingLimits.length > 0) out.push(broken('http.head-as-get', answer.op, exchange, `${where} lacks ${missingLimits.join(', ')}; every API response carries the rate-limit headers ("Every API response carries these headers"), and HEAD sends the header fields GET would (RFC 9110, 9.3.2).`));
  // 8.6: "MUST NOT send Content-Length in such a response unless its field value equals the
  // decimal number of octets that would have been sent in the content" of GET: for a 200 to GET of
  // listPets or getPet, a JSON object or array. Without content coding only: a coded length is the
  // coding's.
  const length = answer.field('content-length');
  const octets = length !== undefined && /^\d+$/.test(length) && answer.field('content-encoding') === undefined ? Number(length) : undefined;
  const mirrored = operationAsGet(view.pathname);
  const tooShort = status === 200 && mirrored !== undefined && SHAPED.has(mirrored) && octets !== undefined && octets < LEAST_JSON;
  if (tooShort) {
    out.push(broken('http.head-as-get', answer.op, exchange, `${where} says Content-Length ${length}, but a 200 to GET of ${exchange.path} (${mirrored}) carries a JSON object or array, at least ${LEAST_JSON} octets; a HEAD's Content-Length must equal the octets GET would send (RFC 9110, 8.6). Send GET's length, or no Content-Length.`));
  }
  const get = memory.lastGet.get(getKey(exchange, view));
  // Only against a GET with nothing written since: the representation may have changed.
  if (get && get.writes === memory.writes && get.status !== 429) {
    // A refusal that turns on the URL and the credential alone, to a request spelled the same.
    const sameAsk = get.asked.authorization === view.headers.authorization && get.asked.accept === view.headers.accept;
    if (refusedByUrl.has(get.status) && sameAsk) {
      out.push(broken('http.head-as-get', answer.op, exchange, `${where} serves HEAD where GET of the same URL with the same credential was answered ${get.status} (#${get.seq}); HEAD is identical to GET but for the content (RFC 9110, 9.3.2).`, [get.seq]));
    } else if (isSuccess(get.status)) {
      const missing = Object.keys(get.headers).filter((f) => !mayDiffer.has(f) && !(rateLimitFields as readonly string[]).includes(f) && answer.field(f) === undefined);
      if (missing.length > 0) out.push(questionable('http.head-as-get', answer.op, exchange, `${where} lacks ${missing.join(', ')}, which GET of the same URL sent (#${get.seq}); a server should send HEAD the header fields it would send GET (RFC 9110, 9.3.2).`));
      if (!tooShort && octets !== undefined && !get.coded && octets !== get.bytes.length) {
        out.push(questionable('http.head-as-get', answer.op, exchange, `${where} says Content-Length ${length}, where GET of the same URL sent ${get.bytes.length} octets (#${get.seq}) and nothing was written since; a HEAD's Content-Length is the length GET would send (RFC 9110, 8.6).`));
      }
    }
  }
  if (out.length === 0) out.push(held('http.head-as-get', answer.op, exchange));
  return out;
}
