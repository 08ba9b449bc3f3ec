// Each client's usage of the contract, from the request log: what the client report's observations
// recorded of each request (operation, query kinds, body field names, answer field names, status).
import { UsageCollector, type UsageFile } from '../../common/usage/clientUsage.ts';
import type { ClientObservation } from './clientObservation.ts';

/**
 * The usage file of the clients in `observations` (only `client`'s, when given): `reads` holds the
 * fields of the answers each was given, since the mock cannot see what the client's code reads.
 */
export function clientUsage(observations: readonly ClientObservation[], client?: string): UsageFile {
  const usage = new UsageCollector();
  for (const o of observations) {
    usage.add({ client: o.client, label: o.clientLabel, operationId: o.operationId, status: o.status, ...(o.query ? { query: o.query } : {}), ...(o.sent ? { body: o.sent } : {}), ...(o.given ? { given: o.given } : {}) });
  }
  return usage.file('mock', client);
}
