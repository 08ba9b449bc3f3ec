// The pet-lifecycle check's judge: two pets created, one fetched by the id POST gave, both found in
// the list filtered by their status; an id the client sends never taken. That each new id is one no
// pet had is data.new-id's, judged by the model on every create of the run.
import type { Exchange } from '../http/exchange.ts';
import { integerText } from '../../common/json/losslessJson.ts';
import { differingFields } from './judgeCreateCases.ts';
import { showValue } from './judgeGetPetCases.ts';
import { listed } from './judgeListCases.ts';
import { judgeExpectation, judgeRefusal } from './judgeRefusal.ts';
import { requestName } from './judgeable.ts';
import { isRemovedGetPet } from './removedOperation.ts';
import type { Judgement } from './judgement.ts';
import { eachCase, JudgementList } from './judgementList.ts';
import { limitBounds } from './listBounds.ts';
import { locationToRead } from './locationToRead.ts';
import { knownCategoryIds, type RunFacts } from './runFacts.ts';

const idsOf = (items: unknown[]) => items.map((item) => integerText((item as { id?: unknown } | null)?.id)).filter((id): id is string => id !== undefined);

export const lifecycleCases = {
  listBefore: (status: string) => `pet-lifecycle/list-before/${status}`,
  create: (index: number) => `pet-lifecycle/create-${index}`,
  withId: 'pet-lifecycle/create-with-id',
  getCreated: 'pet-lifecycle/get-created',
  readLocation: 'pet-lifecycle/read-location',
  listCreated: 'pet-lifecycle/list-created',
} as const;

export function judgeLifecycle(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const { max } = limitBounds(facts.validators.spec);
  const seen = new Set(facts.knownPets.map((p) => p.idText));
  const created: { id: string; body: Record<string, unknown>; exchange: Exchange }[] = [];
  for (const exchange of exchanges) {
    if (exchange.case?.startsWith('pet-lifecycle/list-before/')) {
      for (const id of idsOf(listed(exchange) ?? [])) seen.add(id);
      continue;
    }
    if (exchange.case?.startsWith('pet-lifecycle/create-') && exchange.case !== lifecycleCases.withId) {
      const { status } = exchange.response;
      if (knownCategoryIds(facts.knownPets).length === 0 && status >= 400 && status < 500) {
        // No pet was listed, so no categoryId is known to exist: a refusal may be for naming none.
        v.inconclusive('lifecycle.created', exchange, `answered ${status}: the deployment lists no pets, so no categoryId is known to exist`);
        continue;
      }
      const id = status === 201 ? integerText((exchange.response.value as { id?: unknown } | undefined)?.id) : undefined;
      if (!v.expect(id !== undefined, 'lifecycle.created', exchange, () => `${requestName(exchange)} answered ${status}${status === 201 ? ' without an integer id' : ''}; a valid NewPet must be created with 201 and an id.`)) continue;
      seen.add(id!);
      created.push({ id: id!, body: exchange.expect?.sent ?? {}, exchange });
      continue;
    }
    if (exchange.case === lifecycleCases.withId) {
      // An id is the service's to assign: one the client sends is ignored or refused, never taken.
      const e = judgeExpectation(v, facts.validators, exchange);
      if (e === undefined) continue;
      const { status } = exchange.response;
      if (status < 200 || status >= 300) {
        judgeRefusal(v, facts.validators, 'lifecycle.client-id-ignored', exchange, '4xx', e.what, e.because);
        continue;
      }
      const id = integerText((exchange.response.value as { id?: unknown } | undefined)?.id);
      v.expect(id !== undefined && !seen.has(id), 'lifecycle.client-id-ignored', exchange, () => `${requestName(exchange)} with ${e.what.replace(/^a NewPet carrying /, '')} of a listed pet in the body created a pet with id ${id ?? 'none'}; the service assigns ids, so a new pet never takes one already used.`);
      continue;
    }
    const first = created[0];
    if (!first) continue;
    if (exchange.case === lifecycleCases.getCreated) {
      // After the announced removal, getPet gone (410 or 404) is what the contract announced: the read cannot be judged.
      if (isRemovedGetPet(exchange)) {
        v.inconclusive('lifecycle.fetched', exchange, `answered ${exchange.response.status} after 5 December 2030, getPet's announced removal: gone, as the contract announces, so whether the created pet is readable by its id cannot be judged`);
        continue;
      }
      if (!v.expect(exchange.response.status === 200, 'lifecycle.fetched', exchange, () => `${requestName(exchange)} answered ${exchange.response.status} for the pet just created with that id; it must answer 200 with it.`)) continue;
      const pet = exchange.response.value as Record<string, unknown> | undefined;
      const differs = differingFields({ ...first.body, id: BigInt(first.id) }, pet);
      v.expect(differs.length === 0, 'lifecycle.fetched', exchange, () => `${requestName(exchange)} returned ${differs.map((f) => `${f} ${showValue(pet?.[f])}`).join(', ')} for the pet just created with ${differs.map((f) => showValue(f === 'id' ? first.id : first.body[f])).join(', ')}.`, { each: true, fields: differs });
      continue;
    }
    if (exchange.case === lifecycleCases.readLocation) {
      judgeLocationRead(v, exchange, first);
      continue;
    }
    if (exchange.case === lifecycleCases.listCreated) {
      if (exchange.response.status === 304) {
        judgeNotModified(v, exchange, created, max, exchanges);
        continue;
      }
      const items = listed(exchange);
      const status = new URLSearchParams(exchange.path.split('?')[1] ?? '').get('status');
      if (!v.expect(items !== undefined, 'lifecycle.listed', exchange, () => `${requestName(exchange)} answered ${exchange.response.status}; it must list pets with 200.`)) continue;
      if (items!.length >= max) {
        v.inconclusive('lifecycle.listed', exchange, `${items!.length} pets have status ${status}, so a page of ${max} may not reach the new ones`);
        continue;
      }
      const ids = new Set(idsOf(items!));
      const missing = created.filter((c) => !ids.has(c.id));
      v.expect(missing.length === 0, 'lifecycle.listed', exchange, () => `${requestName(exchange)} lists ${items!.length} pets, all that have status ${status}, yet not the new pet${missing.length > 1 ? 's' : ''} ${missing.map((c) => c.id).join(' and ')} created with that status.`);
    }
  }
  return v.judgements;
}

/**
 * A GET of the first create's Location (locationToRead.ts): it identifies the pet created (RFC 9110,
 * 15.3.2), so it leads to it. 404 or 410, which say the URL names no resource (RFC 9110, 15.5.5
 * and 15.5.11), fail; a 200 whose JSON names another id fails; a 200 in another form (a page for
 * people) is the deployment's to give. Any other answer (the key refused, the quota spent, a
 * method the resource does not allow, a server's trouble, a redirect the run does not follow)
 * tells nothing of the URL.
 */
function judgeLocationRead(v: JudgementList, exchange: Exchange, created: { id: string; exchange: Exchange }): void {
  // The rule is the create's answer's: the read only shows where its Location leads.
  const op = 'createPet';
  const target = locationToRead(created.exchange, created.id);
  const { status } = exchange.response;
  const said = `${requestName(created.exchange)} created pet ${created.id} with Location ${JSON.stringify(target?.location ?? created.exchange.response.headers.location)}`;
  const read = `GET ${target?.url ?? exchange.request.url}`;
  // After getPet's announced removal, the pet's URL may be gone with it.
  if ((status === 404 || status === 410) && isRemovedGetPet({ ...exchange, operationId: 'getPet' })) {
    v.inconclusive('lifecycle.location', exchange, `${read} answered ${status} after 5 December 2030, getPet's announced removal: whether the Location names the pet cannot be told`, op);
    return;
  }
  if (status === 404 || status === 410) {
    v.fail('lifecycle.location', exchange, `${said}, and ${read} answered ${status}: a 201's Location identifies the resource created (RFC 9110, 15.3.2), so it must lead to the pet. Give its URL as a client reaches it, such as ${created.exchange.request.url}/${created.id}, or send no Location.`, eachCase, op);
    return;
  }
  if (status !== 200) {
    v.inconclusive('lifecycle.location', exchange, `${read} answered ${status}, which says nothing of whether the Location names the pet${status >= 300 && status < 400 ? ' (the run does not follow redirects)' : ''}`, op);
    return;
  }
  const id = integerText((exchange.response.value as { id?: unknown } | null | undefined)?.id);
  v.expectOfAnswer(id === undefined || id === created.id, 'lifecycle.location', exchange, () => `${said}, and ${read} gave pet ${id}: a 201's Location identifies the resource created (RFC 9110, 15.3.2), not another pet.`, eachCase, op);
}

/**
 * The validators of the list before the creates, as a client that cached it sends them again: its
 * ETag in If-None-Match, else its Last-Modified in If-Modified-Since (RFC 9110, 13.1.2 and 13.1.3).
 */
export function conditionalOn(before: Exchange | undefined): Record<string, string> {
  const headers = before?.response.status === 200 ? before.response.headers : {};
  if (headers.etag !== undefined) return { 'if-none-match': headers.etag };
  if (headers['last-modified'] !== undefined) return { 'if-modified-since': headers['last-modified'] };
  return {};
}

/**
 * A 304 to the list filtered by the new pets' status, conditional on what it was before they were
 * created: it says the list is as it was, yet it gained them (RFC 9110, 15.4.5: 304 only when the
 * condition evaluated false, 13.1.2 and 13.1.3). Where the list before was full, the new pets may
 * lie past its page; where the condition was a weak tag, or a Last-Modified within a second of the
 * pets' creation, the validator need not tell the two apart (8.8.1, 8.8.2.2): none is judged.
 */
function judgeNotModified(v: JudgementList, exchange: Exchange, created: readonly { id: string; exchange: Exchange }[], max: number, exchanges: readonly Exchange[]): void {
  const status = new URLSearchParams(exchange.path.split('?')[1] ?? '').get('status');
  const before = exchanges.find((e) => e.case === lifecycleCases.listBefore(status ?? ''));
  const items = before ? listed(before) : undefined;
  const asked = exchange.request.headers['if-none-match'] ?? exchange.request.headers['if-modified-since'];
  // 304 answers a conditional GET only (RFC 9110, 15.4.5).
  if (asked === undefined) {
    v.fail('lifecycle.listed', exchange, `${requestName(exchange)}, which carried no condition, answered 304 Not Modified; a 304 answers a conditional request only (RFC 9110, 15.4.5), and this one must list pets with 200.`);
    return;
  }
  if (items === undefined || items.length + created.length > max) {
    v.inconclusive('lifecycle.listed', exchange, `answered 304 to the list conditional on ${JSON.stringify(asked)}, and the list before held ${items?.length ?? 'an unknown number of'} pets: the new ones may lie past its page of ${max}`);
    return;
  }
  const since = exchange.request.headers['if-modified-since'];
  const tag = exchange.request.headers['if-none-match'];
  // A weak tag need not change with every change (RFC 9110, 8.8.1: a modification time in whole
  // seconds is one), and If-None-Match compares weakly (13.1.2).
  if (tag !== undefined && /^\s*W\//.test(tag)) {
    v.inconclusive('lifecycle.listed', exchange, `answered 304 to If-None-Match: ${tag}, a weak tag, which need not change with every change of the list`);
    return;
  }
  if (tag === undefined && since !== undefined) {
    const modified = Date.parse(since);
    const createdAt = Math.max(...created.map((c) => Date.parse(c.exchange.response.headers.date ?? '')));
    // A second either side: the store's clock may read a little apart from the one that writes Date.
    if (!(Number.isFinite(createdAt) && createdAt >= modified + 2000)) {
      v.inconclusive('lifecycle.listed', exchange, `answered 304 to If-Modified-Since ${JSON.stringify(since)}, within a second of the pets' creation (or their 201s carry no Date): a date in whole seconds, from a clock a little apart, cannot tell that list from the one before`);
      return;
    }
  }
  const header = tag !== undefined ? `If-None-Match: ${tag}` : `If-Modified-Since: ${since}`;
  v.fail('lifecycle.listed', exchange, `${requestName(exchange)} with ${header}, from the list of ${items.length} pets before, answered 304 Not Modified, yet the list has since gained the new pet${created.length > 1 ? 's' : ''} ${created.map((c) => c.id).join(' and ')} with that status: a 304 says the list is unchanged (RFC 9110, 13.1 and 15.4.5). Derive ETag and Last-Modified from the list's content, or send neither.`);
}
