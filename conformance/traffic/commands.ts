// The generated traffic's vocabulary: commands as plain data, drawn by fast-check from a seed and
// shrunk by it. The interpreter (`sendCommand.ts`) turns each into requests against the run's state.
import fc from 'fast-check';
import { edgeCategoryIds, edgeNames, invalidBodies, limitAliases, limitNearMisses, petStatuses, trickyNames } from './values.ts';
import { statusNearMisses } from './nearMisses.ts';
import { relationArbitrary, type RelationCommand } from './relations.ts';

/** Every near miss of every PetStatus, from the generator: the sequences draw from them all. */
const statusMisses = petStatuses.flatMap((value) => statusNearMisses(value, petStatuses).map((n) => n.value));

export type PetStatus = (typeof petStatuses)[number];

/** One way to spell a request; every spelling of a valid request must get the same status. */
export interface Spelling {
  /** The Authorization header's name as sent. */
  authHeader: 'Authorization' | 'authorization' | 'AUTHORIZATION';
  /** The scheme as sent: RFC 9110, 11.1 makes it case-insensitive. */
  scheme: 'Bearer' | 'bearer' | 'BEARER';
  /** Accept, or none at all. */
  accept: 'application/json' | '*/*' | 'application/json;q=0.9, */*;q=0.1' | 'application/*' | 'none';
  /** The body's media type: its case and parameters are free (RFC 9110, 8.3.1). */
  contentType: 'application/json' | 'application/json; charset=utf-8' | 'Application/JSON' | 'application/json;charset=UTF-8';
  contentTypeHeader: 'Content-Type' | 'content-type' | 'CONTENT-TYPE';
  /** Compression asked for, or none: the answer must be the same once decoded (RFC 9110, 8.4). */
  acceptEncoding: 'none' | 'gzip' | 'gzip, deflate, br';
  /** A conditional GET whose tag matches nothing the deployment gave: it is answered as if unconditional (RFC 9110, 13.1.2). */
  ifNoneMatch: boolean;
  /** Query parameters in the other order. */
  reverseQuery: boolean;
  /** Query values percent-encoded character by character. */
  encodeQuery: boolean;
}

export const plainSpelling: Spelling = { authHeader: 'Authorization', scheme: 'Bearer', accept: 'application/json', contentType: 'application/json', contentTypeHeader: 'Content-Type', acceptEncoding: 'none', ifNoneMatch: false, reverseQuery: false, encodeQuery: false };

export type KeyChoice = 'key' | 'key2';

export type Command =
  /** `category` picks one of the categoryIds the deployment's own pets have: one it cannot refuse as unknown. */
  | { kind: 'create'; name: string; category: number; status?: PetStatus; spelling: Spelling; key: KeyChoice; readBack: boolean }
  /** A create whose value a deployment may refuse (4xx) or take (then read back exactly). */
  | { kind: 'create-edge'; name: string; categoryId?: string; huge: boolean }
  | { kind: 'create-invalid'; index: number }
  | { kind: 'list'; limit?: number; status?: PetStatus; spelling: Spelling; key: KeyChoice }
  | { kind: 'list-invalid'; limit?: string; status?: string }
  /** A valid limit in another spelling: refused with a 4xx, or read as the number. */
  | { kind: 'list-alias'; limit: string }
  /** A known pet (`pick` chooses which), or an id next to it (`variant` chooses which near miss), read by id. */
  | { kind: 'get'; pick: number; near: 'same' | 'neighbour' | 'malformed' | 'alias'; variant: number; spelling: Spelling; key: KeyChoice }
  /** One request sent in several spellings, each counted as one equivalence group. */
  | { kind: 'equivalent'; of: 'list' | 'get' | 'create'; spellings: Spelling[]; name: string; limit: number; status?: PetStatus; pick: number }
  | { kind: 'unlisted'; method: 'HEAD' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'GET' | 'POST'; target: 'pets' | 'pet' | 'pets-slash' | 'pet-slash' | 'unknown' | 'nested'; withKey: boolean; pick: number }
  /** The last request with the key sent again at once without it (or with a near miss: `miss` and `scheme` choose which), on the same connection. */
  | { kind: 'replay-keyless'; how: 'none' | 'near-miss' | 'other-scheme' | 'empty'; miss: number; scheme: number }
  | { kind: 'burst'; creates: number; reads: number; lists: number; key: KeyChoice }
  | RelationCommand;

const spelling: fc.Arbitrary<Spelling> = fc.record({
  authHeader: fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
  scheme: fc.constantFrom('Bearer', 'bearer', 'BEARER'),
  accept: fc.constantFrom('application/json', '*/*', 'application/json;q=0.9, */*;q=0.1', 'application/*', 'none'),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'),
  contentTypeHeader: fc.constantFrom('Content-Type', 'content-type', 'CONTENT-TYPE'),
  acceptEncoding: fc.constantFrom('none', 'none', 'gzip', 'gzip, deflate, br'),
  ifNoneMatch: fc.boolean(),
  reverseQuery: fc.boolean(),
  encodeQuery: fc.boolean(),
});

/** Mostly the plain spelling, so that a break shows against the common case too. */
const someSpelling = fc.oneof({ weight: 2, arbitrary: fc.constant(plainSpelling) }, { weight: 3, arbitrary: spelling });
const status = fc.constantFrom(...petStatuses);
const name = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...trickyNames) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s) && !/[\ud800-\udfff]/.test(s)) });

export interface CommandOptions {
  readOnly: boolean;
  /** A second key was given. */
  key2: boolean;
  /** The run can send from another local address (see `Transport.otherLocalAddress`). */
  otherAddress?: boolean;
}

export function commandArbitrary(options: CommandOptions): fc.Arbitrary<Command> {
  const key: fc.Arbitrary<KeyChoice> = options.key2 ? fc.constantFrom<KeyChoice>('key', 'key', 'key2') : fc.constant('key');
  const reads: fc.Arbitrary<Command>[] = [
    fc.record({ kind: fc.constant('list' as const), limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }), status: fc.option(status, { nil: undefined }), spelling: someSpelling, key }).map(dropUndefined),
    fc.record({ kind: fc.constant('list-invalid' as const), limit: fc.option(fc.constantFrom(...limitNearMisses), { nil: undefined }), status: fc.option(fc.constantFrom(...statusMisses), { nil: undefined }) })
      .filter((c) => c.limit !== undefined || c.status !== undefined)
      .map(dropUndefined),
    fc.record({ kind: fc.constant('get' as const), pick: fc.nat(1000), near: fc.constantFrom('same', 'same', 'neighbour', 'malformed', 'alias'), variant: fc.nat(15), spelling: someSpelling, key }),
    fc.record({ kind: fc.constant('list-alias' as const), limit: fc.constantFrom(...limitAliases) }),
    fc.record({ kind: fc.constant('unlisted' as const), method: options.readOnly ? fc.constant('GET' as const) : fc.constantFrom('HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'DELETE', 'POST'), target: fc.constantFrom('pets', 'pet', 'pets-slash', 'pet-slash', 'unknown', 'nested'), withKey: fc.boolean(), pick: fc.nat(1000) }),
    fc.record({ kind: fc.constant('replay-keyless' as const), how: fc.constantFrom('none', 'near-miss', 'other-scheme', 'empty'), miss: fc.nat(40), scheme: fc.nat(4) }),
    fc.record({ kind: fc.constant('equivalent' as const), of: fc.constantFrom('list', 'get'), spellings: fc.array(spelling, { minLength: 2, maxLength: 3 }), name, limit: fc.integer({ min: 1, max: 100 }), status: fc.option(status, { nil: undefined }), pick: fc.nat(1000) }).map(dropUndefined),
    fc.record({ kind: fc.constant('burst' as const), creates: fc.constant(0), reads: fc.integer({ min: 1, max: 3 }), lists: fc.integer({ min: 1, max: 3 }), key }),
    relationArbitrary({ readOnly: options.readOnly, otherAddress: options.otherAddress ?? false }),
  ];
  if (options.readOnly) return fc.oneof(...reads);
  const writes: fc.Arbitrary<Command>[] = [
    fc.record({ kind: fc.constant('create' as const), name, category: fc.nat(50), status: fc.option(status, { nil: undefined }), spelling: someSpelling, key, readBack: fc.boolean() }).map(dropUndefined),
    fc.record({ kind: fc.constant('create-edge' as const), name: fc.constantFrom(...edgeNames), categoryId: fc.option(fc.constantFrom(...edgeCategoryIds), { nil: undefined }), huge: fc.boolean() }).map(dropUndefined),
    fc.record({ kind: fc.constant('create-invalid' as const), index: fc.nat(invalidBodies.length - 1) }),
    fc.record({ kind: fc.constant('equivalent' as const), of: fc.constant('create' as const), spellings: fc.array(spelling, { minLength: 2, maxLength: 3 }), name, limit: fc.constant(1), pick: fc.constant(0) }),
    fc.record({ kind: fc.constant('burst' as const), creates: fc.integer({ min: 1, max: 3 }), reads: fc.integer({ min: 0, max: 2 }), lists: fc.integer({ min: 0, max: 2 }), key }),
  ];
  // Creates come often: reads of what the run created are where the model knows most.
  return fc.oneof({ weight: 4, arbitrary: writes[0]! }, ...writes.slice(1).map((arbitrary) => ({ weight: 1, arbitrary })), ...reads.map((arbitrary) => ({ weight: 2, arbitrary })));
}

/** A sequence: a few commands, shrunk by dropping and simplifying them. */
export function sequenceArbitrary(options: CommandOptions, maxLength: number): fc.Arbitrary<Command[]> {
  return fc.array(commandArbitrary(options), { minLength: 2, maxLength });
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
