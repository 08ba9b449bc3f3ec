// The usage of each client whose traffic the proxy forwards (common/usage/clientUsage.ts): its
// operations, query kinds, body field names, the answer fields it was given and the statuses. A
// client is its bearer key, by digest (never the key); requests without one are one client.
import { createHash } from 'node:crypto';
import { UsageCollector, type UsageFile, type UsageRecord } from '../../common/usage/clientUsage.ts';
import { answerFieldNames, bodyFieldNames, queryKinds } from '../../common/usage/usageFacts.ts';
import { bearerSecret } from './clientKeys.ts';
import type { ProxyRecord } from './proxyRecord.ts';

/** The contract's operation a request names, by method and path below the base path. */
export function operationOf(method: string, path: string): string | undefined {
  if (path === '/pets') return method === 'GET' ? 'listPets' : method === 'POST' ? 'createPet' : undefined;
  if (/^\/pets\/[^/]+$/.test(path)) return method === 'GET' ? 'getPet' : undefined;
  if (path === '/store/orders') return method === 'GET' ? 'listStoreOrders' : undefined;
  return undefined;
}

/** A client as usage files name it: a digest of its key (the same key gives the same name in every run). */
export const keyClient = (key: string) => `key:${createHash('sha256').update(key).digest('base64url').slice(0, 16)}`;

/** What one forwarded exchange adds to its client's usage; `basePath` is the target's (`/v1`). */
export function usageRecordOf(record: ProxyRecord, basePath: string): UsageRecord {
  const key = bearerSecret(record.requestHeaders.authorization);
  const client = key === undefined ? 'no-key' : keyClient(key);
  const target = record.url.split('?')[0]!;
  const path = basePath !== '' && target.startsWith(`${basePath}/`) ? target.slice(basePath.length) : target;
  const operationId = operationOf(record.method.toUpperCase(), path);
  const usage: UsageRecord = { client, label: key === undefined ? 'requests without a bearer key' : client, operationId, status: record.response?.status ?? 0 };
  if (operationId === undefined) return usage;
  const query = queryKinds(operationId, record.url);
  if (Object.keys(query).length > 0) usage.query = query;
  if (record.requestBody !== undefined && !record.requestTruncated) usage.body = bodyFieldNames(record.requestBody);
  // A body kept only in part cannot be read as JSON: its fields are not known, and none is claimed.
  const answer = record.response;
  if (answer && !answer.truncated && answer.incomplete === undefined && answer.bytes.length > 0) usage.given = answerFieldNames(new TextDecoder().decode(answer.bytes));
  return usage;
}

/** Collects the usage of the traffic the proxy forwards, as it ends. */
export class ProxyUsage {
  readonly #usage = new UsageCollector();
  readonly #basePath: string;

  constructor(target: string) {
    this.#basePath = new URL(target).pathname.replace(/\/+$/, '');
  }

  add(record: ProxyRecord): void {
    this.#usage.add(usageRecordOf(record, this.#basePath));
  }

  file(): UsageFile {
    return this.#usage.file('proxy');
  }
}
