import { hostname } from 'node:os';

/**
 * The id a replica stamps on the request-log entries it writes to the shared Redis and on its
 * access-log lines: `host:pid` unless --replica-id names it. In a container the host name is the
 * container's (a pod's name on Kubernetes), so the default tells replicas apart without setup.
 */
export function defaultReplicaId(): string {
  return `${hostname()}:${process.pid}`;
}

/** Throws, saying what to give instead, for an id that would not read as one field of a log line. */
export function checkReplicaId(id: string, source = '--replica-id'): void {
  if (!/^[\x21-\x7e]{1,64}$/.test(id)) {
    throw new Error(`${source} ${JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id)} is ${id === '' ? 'empty' : id.length > 64 ? `${id.length} characters long` : 'not printable ASCII without spaces'}. Give a short name without spaces, such as "web-1" or "staging-a:2".`);
  }
}
