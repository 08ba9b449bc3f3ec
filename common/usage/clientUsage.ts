// A usage file: per client, the parts of the contract it used (operations, query parameters and the
// kinds of their values, request body fields, answer fields, statuses). Written by the mock's
// client report and by the validating proxy from the traffic they saw; read by
// `pets-conformance --usage`. Its JSON Schema: conformance/usage/usage.schema.json; docs/usage.md.
import { contractOperations } from './usageFacts.ts';

export const usageFormat = 'pets-usage/1';

export interface UsageFile {
  format: typeof usageFormat;
  /**
   * Who wrote it: `mock` (the client report), `proxy` (the validating proxy) or `hand`. Neither
   * the mock nor the proxy can see which fields the client's code reads, so what they write under
   * `reads` is every field of the answers the client was given: a superset of what it reads. A
   * hand-edited file may narrow it to what the code reads.
   */
  source: 'mock' | 'proxy' | 'hand';
  clients: ClientUsage[];
}

export interface ClientUsage {
  /** The client's identity: `key:<digest>` (a digest of its API key, never the key) or its address. */
  client: string;
  /** How reports name it: the key's redacted label, or the address. */
  label: string;
  requests: number;
  operations: OperationUsage[];
}

export interface OperationUsage {
  operationId: string;
  method: string;
  /** The path template, relative to the base URL: `/pets/{petId}`. */
  path: string;
  requests: number;
  /** Documented query parameters sent, each with the kinds of the values sent (see usageFacts.ts). */
  query: Record<string, string[]>;
  /** Names of the request body's fields sent. */
  body: string[];
  /** By answer status: the names of the answer's fields (of a Pet, each Pet of a list, or an Error) read, or given. */
  reads: Record<string, string[]>;
  /** Every status answered (0: no answer). */
  statuses: number[];
}

/** One request as a usage is built from it. */
export interface UsageRecord {
  client: string;
  label: string;
  operationId: string | undefined;
  status: number;
  query?: Record<string, string>;
  body?: readonly string[];
  given?: readonly string[];
}

const sortedUnion = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort();

/** Collects usage, request by request: the mock builds it from its request log, the proxy as traffic goes. */
export class UsageCollector {
  readonly #clients = new Map<string, ClientUsage>();

  add(record: UsageRecord): void {
    const ops = record.operationId === undefined ? undefined : contractOperations[record.operationId];
    let client = this.#clients.get(record.client);
    if (!client) this.#clients.set(record.client, (client = { client: record.client, label: record.label, requests: 0, operations: [] }));
    client.requests++;
    // A request outside the contract's operations uses no part of it the suite can name.
    if (!ops) return;
    let op = client.operations.find((o) => o.operationId === record.operationId);
    if (!op) client.operations.push((op = { operationId: record.operationId!, method: ops.method, path: ops.path, requests: 0, query: {}, body: [], reads: {}, statuses: [] }));
    op.requests++;
    for (const [name, kind] of Object.entries(record.query ?? {})) op.query[name] = sortedUnion(op.query[name] ?? [], [kind]);
    op.body = sortedUnion(op.body, record.body ?? []);
    if (!op.statuses.includes(record.status)) op.statuses = [...op.statuses, record.status].sort((a, b) => a - b);
    if (record.status !== 0) {
      const key = String(record.status);
      op.reads[key] = sortedUnion(op.reads[key] ?? [], record.given ?? []);
    }
  }

  /** The usage file of every client seen (or only `client`), clients and operations in a stable order. */
  file(source: UsageFile['source'], client?: string): UsageFile {
    const order = Object.keys(contractOperations);
    const clients = [...this.#clients.values()]
      .filter((c) => client === undefined || c.client === client)
      .map((c) => ({ ...c, operations: [...c.operations].sort((a, b) => order.indexOf(a.operationId) - order.indexOf(b.operationId)) }))
      .sort((a, b) => (a.client < b.client ? -1 : a.client > b.client ? 1 : 0));
    return { format: usageFormat, source, clients };
  }
}
