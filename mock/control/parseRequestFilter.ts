import { ApiError } from '../errors/errorCatalogue.ts';
import { MAX_RUN_ID, type RequestFilter } from '../state/requestLog.ts';

const filters = ['method', 'path', 'status', 'runId'] as const;

/** A value as a message shows it: quoted, and cut when long (a filter may be a whole URL's worth). */
const shown = (value: string) => JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);

const refuse = (problem: string) => new ApiError('INVALID_CONTROL_REQUEST', `Cannot filter the request log: ${problem}`);

/**
 * The query of GET /__mock/requests as a filter, or a 400 INVALID_CONTROL_REQUEST that names the
 * parameter, the value given and what to give instead. Filters combine: an entry must match all.
 */
export function parseRequestFilter(query: Record<string, string | string[] | undefined>): RequestFilter {
  const filter: RequestFilter = {};
  for (const [name, raw] of Object.entries(query)) {
    if (!(filters as readonly string[]).includes(name)) throw refuse(`it has no filter ${shown(name)}. Filter by ${filters.join(', ')}.`);
    if (Array.isArray(raw)) throw refuse(`${name} is given ${raw.length} times (${raw.map(shown).join(', ')}). Give it once.`);
    const value = raw ?? '';
    switch (name as (typeof filters)[number]) {
      case 'method':
        if (!/^[A-Za-z]+$/.test(value)) throw refuse(`method ${shown(value)} is not an HTTP method. Give one such as GET or POST.`);
        filter.method = value;
        break;
      case 'path':
        filter.path = value;
        break;
      case 'status':
        // 0 is what the log records for a request left unanswered (a reset connection, a client gone).
        if (!/^(0|[1-5]\d\d|[1-5]xx)$/i.test(value)) throw refuse(`status ${shown(value)} is neither a status nor a class of them. Give one such as 404 or 4xx, or 0 for the requests left unanswered.`);
        filter.status = value;
        break;
      case 'runId':
        if (value === '') throw refuse('runId is empty. Give the X-Conformance-Run-Id of the run, as its report shows it.');
        if (value.length > MAX_RUN_ID) throw refuse(`runId ${shown(value)} has ${value.length} characters; the log keeps the first ${MAX_RUN_ID} of a run id. Give at most ${MAX_RUN_ID}.`);
        filter.runId = value;
        break;
    }
  }
  return filter;
}
