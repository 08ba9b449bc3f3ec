import type { Check } from '../check.ts';
import { acceptedQueryCases, getList, limitBounds, listed } from './listPets.ts';

export const statusFilter: Check = {
  id: 'status-filter',
  title: 'The status filter returns only matching pets, within the limit',
  severity: 'high',
  description:
    'From the status parameter\'s schema in the spec: GET /pets?status=X returns only pets whose status is X, for ' +
    'each PetStatus; an unknown status or a case variant of a valid one is refused with a 4xx Error; and a status ' +
    'with a limit smaller than the number of matching pets honours both.',
  operations: ['listPets'],
  phase: 'active',
  async run(ctx, report) {
    const { max } = limitBounds(ctx);
    const matching = new Map<string, number>();
    for await (const { c, exchange, items } of acceptedQueryCases(ctx, report, 'status', { limit: [String(max)] })) {
      const status = c.values[0]!;
      const wrong = items.filter((item) => (item as { status?: unknown } | null)?.status !== status);
      report.expect(wrong.length === 0, exchange, `GET ${exchange.path} returned ${wrong.length} of ${items.length} pets with another status (first: ${JSON.stringify(wrong[0], (_, v) => (typeof v === 'bigint' ? v.toString() : v))}); it must return only pets whose status is ${status}.`);
      report.expect(items.length <= max, exchange, `GET ${exchange.path} returned ${items.length} pets, more than the limit of ${max}.`);
      matching.set(status, items.length);
    }

    // The filter and the limit together: a page smaller than the pets that match.
    const [status, count] = [...matching.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (status === undefined || count === undefined || count < 2) {
      report.inconclusive('listPets', 'no status has two pets or more, so a smaller limit cannot be tried', 'list-pets/query/status/with-limit');
      return;
    }
    const limit = Math.min(count - 1, 2);
    const page = await getList(ctx, { status: [status], limit: [String(limit)] }, 'list-pets/query/status/with-limit');
    if (!page) return;
    const items = listed(page);
    if (!report.expect(items !== undefined, page, `GET ${page.path} answered ${page.response.status}; status=${status} with limit=${limit} must list pets with 200.`)) return;
    report.expect(items!.length <= limit, page, `GET ${page.path} returned ${items!.length} pets; with status=${status} it must still honour limit=${limit}.`);
    if (items!.length < limit) {
      // Fewer than asked while more match: odd, but the contract only says limit is a maximum.
      report.warn('listPets', `GET ${page.path} returned ${items!.length} pets while ${count} have status ${status}; a client asking for ${limit} expects ${limit}. The contract makes limit a maximum, so this is a warning.`, page, 'short-page');
    }
    const wrong = items!.filter((item) => (item as { status?: unknown } | null)?.status !== status);
    report.expect(wrong.length === 0, page, `GET ${page.path} returned ${wrong.length} pets with another status; with a limit, the filter still holds.`);
  },
};
