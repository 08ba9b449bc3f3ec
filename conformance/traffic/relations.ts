// Metamorphic relations as generated traffic: one request sent plain and in other forms that vary
// what the contract does not let an answer depend on (the dimensions below), judged by the model's
// `equivalent.*` rules against the plain form; the same independent requests in another order; and
// creates sent at once. Drawn by fast-check from the run's seed, and shrunk like any sequence: a
// browser's dozen headers shrink to the one that changes the answer.
import fc from 'fast-check';
import { clientProfiles, profileFamilies, type ClientProfile, type ProfileFamily } from './clientProfiles.ts';
import { jsonMediaTypes, jsonSpellings } from './jsonSpellings.ts';
import { wholeThenFewer } from './wholeThenFewer.ts';
import { petStatuses } from './values.ts';

/** What a relation varies. */
export type Dimension = 'client-headers' | 'json-text' | 'media-type' | 'connection' | 'source-address' | 'order' | 'concurrency';

export const dimensions: readonly Dimension[] = ['client-headers', 'json-text', 'media-type', 'connection', 'source-address', 'order', 'concurrency'];

/** Why a dimension may not be reached, when it is not for want of traffic. */
export const dimensionNeeds: Partial<Record<Dimension, 'writes' | 'other-address'>> = { 'json-text': 'writes', 'media-type': 'writes', concurrency: 'writes', 'source-address': 'other-address' };

/** One form of a request: what sets it apart from the plain form. */
export interface Form {
  dimensions: Dimension[];
  /** For its case name: `chrome-fetch`, `letters-escaped`, `fresh-connection`. */
  name: string;
  /** A client's or an intermediary's headers (a subset of its profile), with its family. */
  headers?: [string, string][];
  family?: ProfileFamily;
  /** Index into `jsonSpellings` (a create's body). */
  jsonSpelling?: number;
  /** Index into `jsonMediaTypes` (a create's Content-Type). */
  mediaType?: number;
  fresh?: boolean;
  otherAddress?: boolean;
}

export type RelationCommand =
  /** The plain request, then each form of it, one after another: every form gets the first's outcome. */
  | { kind: 'relation'; of: 'list' | 'get' | 'create'; forms: Form[]; limit: number; status?: (typeof petStatuses)[number]; pick: number }
  /** Two independent reads, then again in the other order: each is answered as it was (A B B A). */
  | { kind: 'order'; limit: number; pick: number };

/** A client's form of a request, with `headers`: some or all of its profile's. */
const clientForm = (profile: ClientProfile, headers: [string, string][]): Form => ({ dimensions: ['client-headers'], name: profile.name, family: profile.family, headers });
const pairsOf = (profile: ClientProfile) => profile.headers.map(([n, v]): [string, string] => [n, v]);
const profileForm = (families: readonly ProfileFamily[]): fc.Arbitrary<Form> =>
  fc.constantFrom(...clientProfiles.filter((p) => families.includes(p.family))).chain((profile) => fc.subarray(pairsOf(profile), { minLength: 1 }).map((headers) => clientForm(profile, headers)));
const jsonForm: fc.Arbitrary<Form> = fc.nat(jsonSpellings.length - 1).map((i) => ({ dimensions: ['json-text'], name: `json-${jsonSpellings[i]!.name}`, jsonSpelling: i }));
const mediaForm: fc.Arbitrary<Form> = fc.nat(jsonMediaTypes.length - 1).map((i) => ({ dimensions: ['media-type'], name: `type-${jsonMediaTypes[i]!.replace(/[^A-Za-z0-9=-]+/g, '-')}`, mediaType: i }));
const bothForm: fc.Arbitrary<Form> = fc.tuple(jsonForm, mediaForm).map(([j, m]) => ({ dimensions: ['json-text', 'media-type'], name: `${j.name},${m.name}`, jsonSpelling: j.jsonSpelling!, mediaType: m.mediaType! }));
const freshForm: fc.Arbitrary<Form> = fc.constant({ dimensions: ['connection'], name: 'fresh-connection', fresh: true });
const addressForm: fc.Arbitrary<Form> = fc.constant({ dimensions: ['source-address'], name: 'other-source-address', otherAddress: true });
const status = fc.option(fc.constantFrom(...petStatuses), { nil: undefined });

const dropUndefined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export interface RelationOptions {
  readOnly: boolean;
  /** The run can send from another local address (a loopback target). */
  otherAddress: boolean;
}

/** A list in a form of each family of client (a browser, a library, a CLI, a gateway before it), each with part of its headers. */
export const listRelation: fc.Arbitrary<RelationCommand> = fc
  .record({ kind: fc.constant('relation' as const), of: fc.constant('list' as const), forms: fc.tuple(...profileFamilies.map((f) => profileForm([f]))), limit: fc.integer({ min: 1, max: 100 }), status, pick: fc.constant(0) })
  .map(dropUndefined);

/**
 * A list as every client of `clientProfiles` sends it, each with all its headers: what each header
 * does to an answer is seen every run, whatever the seed (a browser's language, a gateway's
 * forwarded address, a sampled trace), on a page long enough to hold every status. A failing
 * relation shrinks to the client, then the header, that changes the answer.
 */
export const everyClientRelation: fc.Arbitrary<RelationCommand> = fc.record({
  kind: fc.constant('relation' as const),
  of: fc.constant('list' as const),
  forms: wholeThenFewer(
    clientProfiles.map((profile) => clientForm(profile, pairsOf(profile))),
    (form) => form.headers!,
    (form, headers) => ({ ...form, headers }),
  ),
  limit: fc.integer({ min: 20, max: 100 }),
  pick: fc.constant(0),
});

/** A read of a known pet by any client, on a fresh connection, and from another source address when there is one. */
export const getRelation = (options: Pick<RelationOptions, 'otherAddress'>): fc.Arbitrary<RelationCommand> =>
  fc.record({ kind: fc.constant('relation' as const), of: fc.constant('get' as const), forms: fc.tuple(profileForm(profileFamilies), freshForm, ...(options.otherAddress ? [addressForm] : [])), limit: fc.constant(1), pick: fc.nat(1000) });

/** A create in another JSON text of the same value, under another spelling of application/json, and both. */
export const createRelation: fc.Arbitrary<RelationCommand> = fc
  .record({ kind: fc.constant('relation' as const), of: fc.constant('create' as const), forms: fc.tuple(jsonForm, mediaForm, bothForm), limit: fc.constant(1), status, pick: fc.constant(0) })
  .map(dropUndefined);

export const orderRelation: fc.Arbitrary<RelationCommand> = fc.record({ kind: fc.constant('order' as const), limit: fc.integer({ min: 1, max: 20 }), pick: fc.nat(1000) });

/** Any relation, for the random sequences. */
export function relationArbitrary(options: RelationOptions): fc.Arbitrary<RelationCommand> {
  return fc.oneof(listRelation, getRelation(options), orderRelation, ...(options.readOnly ? [] : [createRelation]));
}

/**
 * The relations every run sends, each dimension at least once whatever the seed: a list as every
 * client sends it, a read on a fresh connection and from another address, a create in
 * other JSON texts and media-type spellings, two reads in both orders, and creates sent at once.
 * Each is its own property, so shrinking one sends that relation again, not all of them.
 */
export function relationPass(options: RelationOptions): fc.Arbitrary<RelationCommand | { kind: 'burst'; creates: number; reads: number; lists: number; key: 'key' }>[] {
  const concurrent = fc.record({ kind: fc.constant('burst' as const), creates: fc.integer({ min: 3, max: 4 }), reads: fc.constant(0), lists: fc.constant(0), key: fc.constant('key' as const) });
  return options.readOnly ? [everyClientRelation, getRelation(options), orderRelation] : [everyClientRelation, getRelation(options), createRelation, orderRelation, concurrent];
}
