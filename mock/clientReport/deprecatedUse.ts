// Which deprecated operations each client still calls, and how long it has left to move.
import type { ClientObservation } from './clientObservation.ts';

/** A deprecated operation as the report names it (the mock's pipeline/deprecationMarks.ts). */
export interface DeprecatedOperation {
  operationId: string;
  method: string;
  /** The OpenAPI path template, e.g. `/pets/{petId}`. */
  path: string;
  /** Unix ms of the announced removal. */
  removal: number;
  /** What to call instead, in the contract's words. */
  instead: string;
}

/** One client's use of one deprecated operation. */
export interface DeprecatedUse {
  /** The client, as reports name it: a redacted key or an address. */
  client: string;
  operation: string;
  method: string;
  path: string;
  /** How many requests it sent to the operation, the ones answered 410 after the removal included. */
  requests: number;
  /** When the first and the last of them were answered (ISO 8601, the mock's clock). */
  first: string;
  last: string;
  /** The announced removal (ISO 8601). */
  removal: string;
  /** Whole days from the report (the mock's clock) to the removal, rounded up; 0 once removed. */
  daysLeft: number;
  instead: string;
}

const dayMs = 86_400_000;

/**
 * Every client's use of the deprecated operations, one entry per client and operation, clients in
 * `clients` order (the report's), operations in `deprecated` order. A request counts whatever its
 * answer: a 401 or 429 shows the client still calls the operation, as does a 410 after the removal.
 */
export function deprecatedUse(clients: readonly (readonly ClientObservation[])[], deprecated: readonly DeprecatedOperation[], now: number): DeprecatedUse[] {
  const out: DeprecatedUse[] = [];
  for (const requests of clients) {
    for (const op of deprecated) {
      const used = requests.filter((r) => r.operationId === op.operationId);
      if (used.length === 0) continue;
      const times = used.map((r) => r.at);
      out.push({
        client: requests[0]!.clientLabel,
        operation: op.operationId,
        method: op.method,
        path: op.path,
        requests: used.length,
        first: new Date(Math.min(...times)).toISOString(),
        last: new Date(Math.max(...times)).toISOString(),
        removal: new Date(op.removal).toISOString(),
        daysLeft: Math.max(0, Math.ceil((op.removal - now) / dayMs)),
        instead: op.instead,
      });
    }
  }
  return out;
}
