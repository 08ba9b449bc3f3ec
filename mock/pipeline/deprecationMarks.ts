import type { LoadedSpec } from '../../spec/specModel.ts';

/**
 * Since when deprecated operations are deprecated. The contract says getPet is deprecated but not
 * since when, so the mock states 1 January 2026.
 */
export const defaultDeprecatedSince = new Date(Date.UTC(2026, 0, 1));

/**
 * What the contract names as each deprecated operation's replacement ("the replacement is
 * `GET /pets` with the `status` filter"): the words a removed operation's Error says, and the
 * path its `Link` points at, under the API's prefix.
 */
const replacements: Record<string, { says: string; path: string }> = {
  getPet: { says: 'GET /pets with the status filter', path: '/pets' },
};

/** One deprecated operation of the document, and the fields its answers carry before and after its removal. */
export interface Deprecated {
  operationId: string;
  method: string;
  /** The OpenAPI path template, e.g. `/pets/{petId}`. */
  path: string;
  /** Unix ms of its removal (the document's `x-sunset`, 00:00 UTC of that day); undefined when none is given. */
  removal: number | undefined;
  /** What to call instead, in words (`GET /pets with the status filter`), when the contract names it. */
  instead: string | undefined;
  /** Until the removal: Deprecation, Sunset and the Link to the replacement. */
  before: Record<string, string>;
  /** From the removal on (the answer is 410): only the Link to the replacement. */
  after: Record<string, string>;
}

/**
 * The deprecated operations, by operationId. Before the removal every answer carries `Deprecation`
 * (RFC 9745, 2.1: a Structured Field Date), `Sunset` (RFC 8594, 3: an HTTP-date, from the
 * document's `x-sunset`) and a `Link` to the replacement (RFC 8288) with rel="alternate": the
 * replacement is another resource that serves the same animal, not a later version of this one
 * (which rel="successor-version", RFC 5829, would say). After the removal the 410 keeps the Link and
 * drops Deprecation and Sunset: they announce a removal (RFC 8594, 1), which has happened.
 */
export function deprecatedOperations(spec: LoadedSpec, prefix: string, deprecatedSince = defaultDeprecatedSince): Map<string, Deprecated> {
  const out = new Map<string, Deprecated>();
  for (const op of spec.operations) {
    if (!op.operation.deprecated) continue;
    const sunset = (op.operation as { 'x-sunset'?: string })['x-sunset'];
    const removal = sunset ? Date.parse(`${sunset}T00:00:00Z`) : undefined;
    const replacement = replacements[op.operationId];
    const link: Record<string, string> = replacement ? { link: `<${prefix}${replacement.path}>; rel="alternate"; title="${replacement.says}"` } : {};
    const before: Record<string, string> = { deprecation: `@${Math.floor(deprecatedSince.getTime() / 1000)}` };
    if (removal !== undefined && !Number.isNaN(removal)) before.sunset = new Date(removal).toUTCString();
    out.set(op.operationId, {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      removal: removal !== undefined && !Number.isNaN(removal) ? removal : undefined,
      instead: replacement?.says,
      before: { ...before, ...link },
      after: link,
    });
  }
  return out;
}

/** Whether `deprecated` is removed at `now` (Unix ms on the mock's clock): at or after its removal instant. */
export const isRemoved = (deprecated: Deprecated | undefined, now: number): boolean => deprecated?.removal !== undefined && now >= deprecated.removal;

/** The fields that mark an answer of `deprecated` at `now`. */
export const marksAt = (deprecated: Deprecated | undefined, now: number): Record<string, string> | undefined =>
  deprecated === undefined ? undefined : isRemoved(deprecated, now) ? deprecated.after : deprecated.before;
