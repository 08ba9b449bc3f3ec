// Which part of the contract a failure is about, so that `--usage` can tell whether a client uses
// it: an operation, and within it a query parameter (with the kinds of value the rule is about) or
// some answer fields (of answers of a status class). A failure that cannot be placed (a rule of
// HTTP or of the key, a request outside the contract's operations) is placed on every client:
// no client is called safe on a failure the suite cannot place.
import type { Finding } from '../check.ts';
import { rules, type RuleId } from '../model/rules.ts';
import { contractOperations } from '../../common/usage/usageFacts.ts';
import type { ClientUsage } from '../../common/usage/clientUsage.ts';

export type FindingPlace =
  | { everyClient: true; why: string }
  | {
      everyClient?: false;
      operationId: string;
      /** A query parameter the rule is about; `kinds` when only values of those kinds (usageFacts.ts `valueKind`). */
      parameter?: { name: string; kinds?: readonly string[] };
      /** Answer fields the failure is about, on answers of `answerStatus`'s class (2xx, or 4xx and 5xx). */
      fields?: readonly string[];
      answerStatus?: number;
      /**
       * Other operations whose answers carry the same fields: a read-back that differs from an
       * earlier read shows one of the two wrong, and the suite cannot say which.
       */
      alsoIn?: readonly string[];
    };

/**
 * Rules about every request whatever its operation: the key and how it is presented (Authentication),
 * the rate limit every request counts in (Limits), and HTTP's own rules of messages and framing.
 */
const everyRequest = /^(auth|rate|headers|probe|wire|http|framing|unlisted)\./;

/** Rules about one query parameter of listPets, and the kinds of value they are about (all when absent). */
const parameterRules: Readonly<Partial<Record<RuleId, { name: string; kinds?: readonly string[] }>>> = {
  'page.refused': { name: 'limit', kinds: ['out-of-range', 'not-integer'] },
  'page.open': { name: 'limit', kinds: ['empty', 'repeated'] },
  'page.min-size': { name: 'limit' },
  'page.max-holds-all': { name: 'limit' },
  'filter.served': { name: 'status', kinds: ['available', 'pending', 'sold'] },
  'filter.open': { name: 'status', kinds: ['empty', 'repeated'] },
  'filter.only-status': { name: 'status' },
  'filter.with-limit': { name: 'status' },
  'data.status-filter': { name: 'status' },
};

/** Rules that compare two reads of one pet, and the operations the other read may come from. */
const readBackRules: Readonly<Partial<Record<RuleId, readonly string[]>>> = {
  'data.read-back': ['listPets', 'createPet', 'getPet'],
  'create.read-back': ['createPet', 'getPet'],
  'lifecycle.fetched': ['createPet', 'getPet'],
  'get-pet.known': ['listPets', 'getPet'],
};

const everyOperationRule = new Set(rules.filter((r) => r.operations.includes('*')).map((r) => r.id));

/** Where a failure on `operationId` lies in the contract. */
export function findingPlace(operationId: string, finding: Pick<Finding, 'rule' | 'fields' | 'evidence'>): FindingPlace {
  const rule = finding.rule?.id as RuleId | undefined;
  if (rule === undefined) return { everyClient: true, why: 'it names no rule of the contract' };
  if (!(operationId in contractOperations)) return { everyClient: true, why: `it is about ${operationId === 'unlisted' ? 'a method or path the contract does not list' : `"${operationId}"`}, not one of the contract's operations` };
  if (everyRequest.test(rule) || everyOperationRule.has(rule as never)) return { everyClient: true, why: 'its rule holds for every request, whatever it asks' };
  const parameter = parameterRules[rule];
  if (parameter) return { operationId, parameter };
  if (finding.fields && finding.fields.length > 0) {
    const alsoIn = (readBackRules[rule] ?? []).filter((other) => other !== operationId);
    return { operationId, fields: finding.fields, ...(finding.evidence ? { answerStatus: finding.evidence.response.status } : {}), ...(alsoIn.length > 0 ? { alsoIn } : {}) };
  }
  return { operationId };
}

const successful = (status: number) => status >= 200 && status < 300;

/** Whether the client's usage reaches the place: the failure can break that client. */
export function usedBy(place: FindingPlace, client: ClientUsage): boolean {
  if (place.everyClient) return true;
  if (place.fields) {
    // A field read on an answer of the same class: a Pet's `status` is not an Error's.
    const sameClass = (status: number) => place.answerStatus === undefined || successful(status) === successful(place.answerStatus);
    const ops = client.operations.filter((o) => o.operationId === place.operationId || place.alsoIn?.includes(o.operationId));
    const read = ops.flatMap((op) => Object.entries(op.reads).filter(([status]) => sameClass(Number(status))).flatMap(([, fields]) => fields));
    return place.fields.some((f) => read.includes(f));
  }
  const op = client.operations.find((o) => o.operationId === place.operationId);
  if (!op) return false;
  if (place.parameter) {
    const kinds = op.query[place.parameter.name];
    if (!kinds || kinds.length === 0) return false;
    if (place.parameter.kinds && !kinds.some((k) => place.parameter!.kinds!.includes(k))) return false;
  }
  return true;
}

/** The place in words, for the reports: `the answer field status of listPets (200)`. */
export function describePlace(place: FindingPlace): string {
  if (place.everyClient) return `every client (${place.why})`;
  const op = `${place.operationId} (${contractOperations[place.operationId]!.method} ${contractOperations[place.operationId]!.path})`;
  if (place.parameter) return `the query parameter ${place.parameter.name}${place.parameter.kinds ? ` (values: ${place.parameter.kinds.join(', ')})` : ''} of ${op}`;
  if (place.fields) return `the answer field${place.fields.length > 1 ? 's' : ''} ${place.fields.join(', ')} of ${op}${place.answerStatus !== undefined ? ` answered ${place.answerStatus}` : ''}${place.alsoIn ? ` (or of ${place.alsoIn.join(', ')}, read before)` : ''}`;
  return op;
}
