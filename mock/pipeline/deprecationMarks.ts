import type { LoadedSpec } from '../../spec/specModel.ts';

/**
 * Since when deprecated operations are deprecated. The contract says getPet is deprecated but not
 * since when, so the mock states 1 January 2026.
 */
export const defaultDeprecatedSince = new Date(Date.UTC(2026, 0, 1));

/**
 * The headers that mark every answer of a deprecated operation, by operationId: `Deprecation`
 * (RFC 9745, a Structured Field Date) and, where the document gives a removal date in `x-sunset`,
 * `Sunset` (RFC 8594, an HTTP-date).
 */
export function deprecationMarks(spec: LoadedSpec, deprecatedSince = defaultDeprecatedSince): Map<string, Record<string, string>> {
  const marks = new Map<string, Record<string, string>>();
  for (const op of spec.operations) {
    if (!op.operation.deprecated) continue;
    const headers: Record<string, string> = { deprecation: `@${Math.floor(deprecatedSince.getTime() / 1000)}` };
    const sunset = (op.operation as { 'x-sunset'?: string })['x-sunset'];
    if (sunset) headers.sunset = new Date(`${sunset}T00:00:00Z`).toUTCString();
    marks.set(op.operationId, headers);
  }
  return marks;
}
