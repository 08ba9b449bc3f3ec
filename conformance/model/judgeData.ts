// Data invariants across answers: whatever the run reads back equals what it knows of that id.
import { isRemovedGetPet } from './removedOperation.ts';
import type { Exchange } from '../http/exchange.ts';
import { parseLossless, integerText, toJsonText, type LosslessValue } from '../../common/json/losslessJson.ts';
import { aboutFields, broken, held, holds, questionable, type Judgement } from './judgement.ts';
import type { ModelState, PetFacts } from './modelState.ts';
import type { RequestView } from './requestView.ts';

const statuses = ['available', 'pending', 'sold'];
/** The items of one list the model reads back and remembers: twice the largest page. */
const maxLearnt = 200;

/** The prefix of names the suite sends only without a key. */
export const keylessMarker = 'pets-conformance sent without a key ';
/** The prefix of names the suite sends in one create only: one pet may have it, under the 201's id. */
export const onceMarker = 'pets-conformance once ';
/** The prefix of names the suite sends only in bodies that are no valid NewPet: no pet may have it. */
export const refusedMarker = 'pets-conformance refused ';
/** A petId as an int64 is written in decimal; leading zeros are left open (some parsers take them). */
const canonicalId = /^-?\d+$/;

type Obj = Record<string, LosslessValue>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The facts an answer's pet states, in the model's terms. */
function factsOf(pet: Obj): Pick<PetFacts, 'name' | 'categoryId' | 'status'> {
  return {
    ...(typeof pet.name === 'string' ? { name: pet.name } : {}),
    ...(integerText(pet.categoryId) !== undefined ? { categoryId: integerText(pet.categoryId)! } : {}),
    status: pet.status === undefined ? 'absent' : typeof pet.status === 'string' ? pet.status : toJsonText(pet.status),
  };
}

const show = (v: string | undefined) => (v === undefined ? '(none)' : JSON.stringify(v));

/** The fields where `pet` differs from what is known, as `name "Rex" where "Rex\\u00e9" was known`. */
function differences(known: Pick<PetFacts, 'name' | 'categoryId' | 'status'>, pet: Obj): string[] {
  const got = factsOf(pet);
  const out: string[] = [];
  if (known.name !== undefined && got.name !== known.name) out.push(`name ${show(got.name)} where ${show(known.name)} was ${'sent or read before'}`);
  if (known.categoryId !== undefined && got.categoryId !== known.categoryId) out.push(`categoryId ${got.categoryId ?? '(none)'} where ${known.categoryId} was known`);
  if (known.status !== undefined && got.status !== known.status) out.push(`status ${got.status === 'absent' ? '(none)' : show(got.status)} where ${known.status === 'absent' ? '(none)' : show(known.status)} was known`);
  return out;
}

/** The field a difference names (its first word). */
const fieldOf = (difference: string) => difference.split(' ')[0]!;

/** The integer another spelling of it stands for (`0x4b` is 75), when it stands for one exactly. */
function aliasOf(petId: string): string | undefined {
  const n = Number(petId.trim());
  return petId.trim() !== '' && Number.isSafeInteger(n) ? String(n) : undefined;
}

/** The NewPet a create sent, read losslessly; undefined when the body is not a JSON object. */
function sentPet(view: RequestView): Obj | undefined {
  if (view.body === undefined) return undefined;
  try {
    const value = parseLossless(view.body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function readBack(state: ModelState, op: string, exchange: Exchange, pet: Obj, id: string, where: string): Judgement | undefined {
  const refusedAt = typeof pet.name === 'string' ? state.keylessNames.get(pet.name) : undefined;
  if (refusedAt !== undefined && !state.pets.get(id)?.created) {
    return broken('auth.keyless-refused', op, exchange, `${where} lists pet ${id} named ${JSON.stringify(pet.name)}, which only the request #${refusedAt} sent without a valid key created: a refused request changed the store.`, [refusedAt]);
  }
  const refusedBy = typeof pet.name === 'string' ? state.refusedNames.get(pet.name) : undefined;
  if (refusedBy !== undefined && !state.pets.get(id)?.created) {
    return broken('data.refused-unstored', op, exchange, `${where} lists pet ${id} named ${JSON.stringify(pet.name)}, a name only the create #${refusedBy} sent, which was refused: a refused create added a pet. A create answered 4xx ("The body is missing required fields or has invalid values") must leave the store as it was.`, [refusedBy]);
  }
  const onceId = typeof pet.name === 'string' && pet.name.startsWith(onceMarker) ? state.onceNames.get(pet.name) : undefined;
  if (onceId !== undefined && onceId.id !== id) {
    return broken('data.one-id-one-pet', op, exchange, `${where} lists pet ${id} named ${JSON.stringify(pet.name)}, a name only one create sent (#${onceId.seq}), whose 201 gave id ${onceId.id}: one create made two pets.`, [onceId.seq]);
  }
  const known = state.pets.get(id);
  if (!known) return undefined;
  // "Transitions: not shown": a pet the run only read may change status by others' hands; one it
  // created, in a run that is the key's only user, keeps the status it was given.
  const diff = differences(known.created ? known : { ...known, status: undefined }, pet);
  return aboutFields(holds(diff.length === 0, 'data.read-back', op, exchange, () => `${where} gives pet ${id} ${diff.join(', ')} (#${known.seq}); one id is one pet, read back character by character as it was created or first read.`, [known.seq]), diff.map(fieldOf));
}

/** Judges one answer against the pets the run knows. Pure: the state is read, never changed. */
export function judgeData(exchange: Exchange, view: RequestView, state: ModelState): Judgement[] {
  const { status } = exchange.response;
  const value = exchange.response.value;
  const where = `${view.method} ${exchange.path} (#${exchange.seq})`;
  const out: Judgement[] = [];
  // A body the run's own budget kept only in part holds no pet the model can judge.
  if (view.credential.kind !== 'key' || status === 429 || exchange.response.keptInPart !== undefined) return out;

  if (view.operation === 'createPet' && status >= 200 && status < 300 && isObject(value)) {
    const id = integerText(value.id);
    const sent = sentPet(view);
    if (id !== undefined) {
      const earlier = state.pets.get(id);
      out.push(holds(!earlier, 'data.new-id', 'createPet', exchange, () => `${where} created a pet with id ${id}, which pet ${JSON.stringify(earlier!.name)} already has (#${earlier!.seq}); every new pet gets an id no other pet has.`, earlier ? [earlier.seq] : []));
    }
    if (sent && typeof sent.name === 'string' && integerText(sent.categoryId) !== undefined) {
      const expected = { name: sent.name, categoryId: integerText(sent.categoryId)!, ...(typeof sent.status === 'string' ? { status: sent.status } : {}) };
      const diff = differences(expected, value);
      out.push(aboutFields(holds(diff.length === 0, 'data.created-as-sent', 'createPet', exchange, () => `${where} answered ${status} with ${diff.join(', ')}; the created Pet holds what was sent.`), diff.map(fieldOf)));
    }
  }

  if (view.operation === 'getPet' && view.petId !== undefined) {
    const petId = view.petId;
    const canonical = canonicalId.test(petId);
    if (status >= 200 && status < 300) {
      // Another spelling of an integer (`0x4b`, `75e0`, `+75`, `75.0`) read as that integer is how a
      // validator that coerces types reads it: questionable, not a break, if it is the pet asked for.
      const alias = canonical ? undefined : aliasOf(petId);
      const answered = isObject(value) ? integerText(value.id) : undefined;
      if (canonical) out.push(held('data.id-exact', 'getPet', exchange));
      else if (alias !== undefined && answered === alias) out.push(questionable('data.id-exact', 'getPet', exchange, `${where} answered ${status} for the petId ${JSON.stringify(petId)} with pet ${alias}: it read another spelling as the integer ${alias}. The contract's petId is an int64; a strict server refuses such a spelling with a 4xx.`));
      else out.push(broken('data.id-exact', 'getPet', exchange, `${where} answered ${status} for the petId ${JSON.stringify(petId)}, which is no integer${answered !== undefined ? `, with pet ${answered}` : ''}; it must be refused (4xx), not read as an id.`));
      if (canonical && isObject(value)) {
        const id = integerText(value.id);
        const asked = BigInt(petId).toString();
        out.push(holds(id === asked, 'data.one-id-one-pet', 'getPet', exchange, () => `${where} returned the pet with id ${id ?? '(none)'} for petId ${asked}; it returns the animal asked for.`));
        const judged = id === asked ? readBack(state, 'getPet', exchange, value, asked, where) : undefined;
        if (judged) out.push(judged);
        if (state.pets.get(asked)?.created) out.push(held('data.created-found', 'getPet', exchange));
      }
    } else if (status === 404 && canonical && !/^-?0\d/.test(petId) && !isRemovedGetPet(exchange)) {
      // Only the integer's own spelling: `0123` found by its digits as text is a 404, not a lost pet.
      const known = state.pets.get(BigInt(petId).toString());
      if (known?.created) out.push(broken('data.created-found', 'getPet', exchange, `${where} answered 404 for pet ${petId}, which this run created (#${known.seq}); a created pet is found by its id.`, [known.seq]));
      else if (known) out.push(held('data.created-found', 'getPet', exchange));
    }
  }

  if (view.operation === 'listPets' && status === 200 && Array.isArray(value)) {
    const ids = new Map<string, number>();
    const repeated: string[] = [];
    for (const item of value) {
      const id = isObject(item) ? integerText(item.id) : undefined;
      if (id === undefined) continue;
      if (ids.has(id)) repeated.push(id);
      ids.set(id, (ids.get(id) ?? 0) + 1);
    }
    out.push(holds(repeated.length === 0, 'data.list-unique', 'listPets', exchange, () => `${where} lists the id${repeated.length > 1 ? 's' : ''} ${[...new Set(repeated)].join(', ')} more than once; each id is one pet.`));

    // "Returns only animals with this status": whatever value is sent, a list answered for it holds
    // only pets whose status is that value exactly. A near miss of a PetStatus (`avail`,
    // `Available`, `available,sold`, ` sold`) may be refused with any 4xx; answered, it lists none,
    // since no pet's status is it. An empty value may be read as no filter (open), and a repeated
    // one as either value; a list mixing them reads the parameter as a list, which is questionable.
    const wanted = view.query.getAll('status');
    if (wanted.length === 1 && wanted[0] !== '') {
      const sent = wanted[0]!;
      const others = value.filter((item) => isObject(item) && item.status !== sent);
      const enumValue = statuses.includes(sent);
      out.push(holds(others.length === 0, 'data.status-filter', 'listPets', exchange, () => `${where} asked for status ${JSON.stringify(sent)} and got ${others.length} pet${others.length > 1 ? 's' : ''} with another (first: id ${integerText((others[0] as Obj).id) ?? '?'}, status ${toJsonText((others[0] as Obj).status ?? null)})${enumValue ? '' : `; ${JSON.stringify(sent)} is no PetStatus, so no pet has it: refuse it with a 4xx, or list none, but never read it as a prefix, a list, another case or trimmed`}.`));
    } else if (wanted.length > 1) {
      const outside = value.filter((item) => isObject(item) && !wanted.includes(item.status as string));
      const seen = new Set(value.filter(isObject).map((item) => item.status));
      if (outside.length > 0) {
        out.push(broken('data.status-filter', 'listPets', exchange, `${where} asked for status ${wanted.map((w) => JSON.stringify(w)).join(' and ')} and got ${outside.length} pet${outside.length > 1 ? 's' : ''} with neither (first: id ${integerText((outside[0] as Obj).id) ?? '?'}, status ${toJsonText((outside[0] as Obj).status ?? null)}).`));
      } else if (seen.size > 1) {
        out.push(questionable('data.status-filter', 'listPets', exchange, `${where} sent status twice and got pets of both (${[...seen].map((v) => JSON.stringify(v)).join(', ')}): it read the parameter as a list. The contract's status is one PetStatus ("Returns only animals with this status"), and says nothing of a repeated one, so this is a warning.`));
      } else out.push(held('data.status-filter', 'listPets', exchange));
    }
    const limits = view.query.getAll('limit');
    const bound = limits.length === 0 ? 20 : limits.length === 1 && /^\d+$/.test(limits[0]!) && Number(limits[0]) >= 1 && Number(limits[0]) <= 100 ? Number(limits[0]) : undefined;
    if (bound !== undefined) {
      out.push(holds(value.length <= bound, 'data.limit-bound', 'listPets', exchange, () => `${where} returned ${value.length} pets where ${limits.length === 0 ? 'no limit means the default of 20' : `limit=${bound} allows at most ${bound}`}.`));
    }
    for (const item of value.slice(0, maxLearnt)) {
      const id = isObject(item) ? integerText(item.id) : undefined;
      if (id === undefined) continue;
      const judged = readBack(state, 'listPets', exchange, item as Obj, id, where);
      if (judged) out.push(judged);
    }
  }
  return out;
}

/** What the answer teaches the model: pets created (as sent) and pets read (as first read). */
export function learnData(exchange: Exchange, view: RequestView, state: ModelState): void {
  const { status } = exchange.response;
  const value = exchange.response.value;
  if (view.credential.kind !== 'key' && view.method === 'POST') {
    const sent = sentPet(view);
    // Only names no keyed request ever sends: a pet of that name can come from nothing but the refused request.
    if (typeof sent?.name === 'string' && sent.name.startsWith(keylessMarker) && !state.keylessNames.has(sent.name)) state.keylessNames.set(sent.name, exchange.seq);
  }
  if (view.credential.kind === 'key' && view.operation === 'createPet' && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429) {
    const sent = sentPet(view);
    if (typeof sent?.name === 'string' && sent.name.startsWith(refusedMarker) && !state.refusedNames.has(sent.name)) state.refusedNames.set(sent.name, exchange.seq);
  }
  if (status < 200 || status >= 300 || exchange.response.keptInPart !== undefined) return;
  const remember = (id: string, facts: Omit<PetFacts, 'id' | 'seq' | 'created'>, created: boolean) => {
    const known = state.pets.get(id);
    if (!known) {
      state.pets.set(id, { id, ...facts, created, seq: exchange.seq });
      return;
    }
    // A status first learnt from a read fills in a create that sent none (the default is open).
    if (known.status === undefined && facts.status !== undefined) known.status = facts.status;
  };
  if (view.credential.kind !== 'key') {
    return;
  }
  if (view.operation === undefined && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(view.method)) {
    // A write the contract does not define, served with the key: what it did to a pet is the
    // deployment's own business, so the model forgets that pet (or every pet, for the collection).
    // Elsewhere (an order placed at /store/orders) it may have moved any pet's status, whose
    // transitions the contract does not show: the next read says it again.
    const id = /^\/pets\/(-?\d+)(\/.*)?$/.exec(view.pathname)?.[1];
    const collection = /^\/pets\/?$/.test(view.pathname);
    // A POST to the collection in another spelling (`/pets/`) adds a pet, as createPet does: nothing known changes.
    if (collection && view.method === 'POST') return;
    if (id !== undefined) state.pets.delete(BigInt(id).toString());
    else if (collection) state.pets.clear();
    else for (const pet of state.pets.values()) delete pet.status;
    return;
  }
  if (view.operation === undefined) return;
  if (view.operation === 'createPet' && isObject(value)) {
    const id = integerText(value.id);
    const sent = sentPet(view);
    if (id === undefined || state.pets.has(id)) return;
    if (typeof sent?.name === 'string' && sent.name.startsWith(onceMarker) && !state.onceNames.has(sent.name)) state.onceNames.set(sent.name, { id, seq: exchange.seq });
    const read = factsOf(value);
    remember(
      id,
      {
        ...(typeof sent?.name === 'string' ? { name: sent.name } : read.name !== undefined ? { name: read.name } : {}),
        ...(integerText(sent?.categoryId) !== undefined ? { categoryId: integerText(sent!.categoryId)! } : read.categoryId !== undefined ? { categoryId: read.categoryId } : {}),
        // Sent without a status and answered without one: the default is open, so the first read says it.
        ...(typeof sent?.status === 'string' ? { status: sent.status } : read.status !== 'absent' ? { status: read.status } : {}),
      },
      true,
    );
  }
  if (view.operation === 'getPet' && isObject(value) && view.petId !== undefined && canonicalId.test(view.petId)) {
    const id = integerText(value.id);
    if (id === BigInt(view.petId).toString()) remember(id, factsOf(value), false);
  }
  if (view.operation === 'listPets' && Array.isArray(value)) {
    // At most a page and then some: a deployment that ignores limit is failed for it, and its
    // 170,000 pets are not all worth remembering.
    for (const item of value.slice(0, maxLearnt)) {
      if (!isObject(item)) continue;
      const id = integerText(item.id);
      if (id !== undefined) remember(id, factsOf(item), false);
    }
  }
}
