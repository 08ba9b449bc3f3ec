import { keptFor } from './keptFor.ts';
import { petJson, type StoredPet } from '../state/petJson.ts';
import { frozenQuery, type Query } from './readRequest.ts';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import type { PetStatus } from '../../spec/types.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import type { StateParts } from '../state/stateParts.ts';
import type { AnsweredRequest, CoreLog } from '../core/coreTypes.ts';
import type { CorsOrigins } from './corsOptions.ts';
import type { Latency } from './latency.ts';
import type { RateLimitHeaders } from '../rateLimits/draftRateLimitFields.ts';
import { utf8Length } from '../core/utf8Length.ts';
import { answerFieldNames } from '../../common/usage/usageFacts.ts';
import { LogThrottle } from './logThrottle.ts';
import { deprecatedOperations, type Deprecated } from './deprecationMarks.ts';
import { PageCache } from './pageCache.ts';
import { apiRoutes, type ApiRoutes } from './route.ts';
import { requestValidation, type RequestValidation } from './requestValidation.ts';

export interface ApiPipelineOptions {
  spec: LoadedSpec;
  state: StateParts;
  prefix: string;
  corsOrigins: CorsOrigins;
  bodyLimit: number;
  defaultStatus: PetStatus | null;
  strict: boolean;
  /**
   * A request without a valid key to a method or path the API does not serve: told as such (404,
   * 405; 'routed', the mock's), or refused for its key first (401, 'unauthorized'). The contract
   * pins 401 only for its operations; either is a deployment's choice (docs/contract-choices.md).
   */
  keylessUnlisted?: 'routed' | 'unauthorized' | undefined;
  /**
   * OPTIONS: answered on every path as a CORS preflight, before the key ('answered', the mock's),
   * or a method the API does not serve ('unlisted'). OPTIONS is no operation of the contract.
   */
  preflight?: 'answered' | 'unlisted' | undefined;
  /** Also send the draft's RateLimit-Policy and RateLimit beside X-RateLimit-* ('draft'). */
  ratelimitHeaders: RateLimitHeaders;
  latency?: Latency | undefined;
  maxPreferDelayMs: number;
  /** Answers Prefer's 2xx and the operations the store does not hold, from the spec. */
  examples: PrismResponder;
  /** The server log: ignored query parameters, refused preflights, server errors. */
  log?: CoreLog | undefined;
  /** The Date field's text for an instant of the mock's clock (core/dateField.ts: made once per second), the core's own. */
  dateField(now: number): string;
  /** Called once per API request as answered (or left unanswered): the access log's line. */
  onAnswer?: ((answered: AnsweredRequest) => void) | undefined;
}

/** What the steps of the API pipeline share: the options, and what is built once from the spec. */
export interface ApiContext extends ApiPipelineOptions {
  /** OPTIONS is a CORS preflight, answered before the key: CORS on, and `preflight` not 'unlisted'. */
  answersPreflight: boolean;
  /** The key is asked before the route is looked at (`keylessUnlisted: 'unauthorized'`), as a gateway in front of the API does. */
  keyFirst: boolean;
  routes: ApiRoutes;
  validation: RequestValidation;
  /** The deprecated operations by operationId: their removal, replacement, and the fields their answers carry. */
  deprecated: Map<string, Deprecated>;
  /** List pages kept as text until the store changes. */
  pages: PageCache;
  /** A page polling with `?page=2`, or retrying a refused preflight, would otherwise fill the log. */
  queryWarnings: LogThrottle;
  /** A query as parsed (frozenQuery), kept for the queries last asked: a client repeats its queries. */
  query(search: string): Query;
  /** A stored pet's JSON text (petJson), kept for the pets last read: a pet never changes once stored. */
  petText(pet: StoredPet): string;
  /** The Content-Length of a body: the last one's kept, since a list page's text is the same string until the store changes. */
  contentLength(body: string): string;
  /** The field names an answer gave (what a client's usage records), the last answer's kept as contentLength's is. */
  answerFields(body: string): string[];
  preflightWarnings: LogThrottle;
}

export function apiContext(options: ApiPipelineOptions): ApiContext {
  const answersPreflight = options.corsOrigins !== false && options.preflight !== 'unlisted';
  return {
    ...options,
    answersPreflight,
    keyFirst: options.keylessUnlisted === 'unauthorized',
    routes: apiRoutes(options.spec, options.prefix, { cors: answersPreflight }),
    validation: requestValidation(options.spec, { strict: options.strict }),
    deprecated: deprecatedOperations(options.spec, options.prefix),
    pages: new PageCache(),
    queryWarnings: new LogThrottle(),
    preflightWarnings: new LogThrottle(),
    query: keptFor(frozenQuery),
    petText: keptFor(petJson),
    contentLength: lastOf((body) => String(utf8Length(body))),
    answerFields: lastOf(answerFieldNames),
  };
}

/** `derive` of a text, the last one's kept: a list page's text is the same string until the store changes, so repeated reads of it derive nothing. */
function lastOf<T>(derive: (text: string) => T): (text: string) => T {
  let last: string | undefined;
  let value: T;
  return (text) => {
    if (text !== last) {
      value = derive(text);
      last = text;
    }
    return value;
  };
}

/** The operations the store answers (PetStep); the contract's others are answered from the spec. */
export const storeOperations: ReadonlySet<string> = new Set(['listPets', 'createPet', 'getPet']);

export const jsonType = 'application/json; charset=utf-8';
