import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { FiredFault } from '../state/faultRule.ts';
import type { ApiKeyEntry } from '../state/keyRing.ts';
import type { PetStep, PetStepResult } from '../state/stateParts.ts';
import type { RateDecision } from '../rateLimits/rateLimiter.ts';
import type { CoreRequest } from '../core/coreTypes.ts';
import type { Credentials } from './parseAuthorization.ts';
import type { RouteMatch } from './route.ts';
import type { Preferences } from './readPreferences.ts';
import type { Query } from './readRequest.ts';
import type { CheckedParameters } from './requestValidation.ts';

/** One API request on its way through the pipeline: what each step learns of it, for the steps after and the recording. */
export interface Exchange {
  request: CoreRequest;
  /** The method in upper case. */
  method: string;
  path: string;
  /** The query as parsed: read only, one object serves every request with the same query (ApiContext.query). */
  query: Query;
  ip: string;
  route: RouteMatch | undefined;
  op: SpecOperation | undefined;
  credentials: Credentials | undefined;
  apiKey: ApiKeyEntry | null;
  rateDecision: RateDecision | null;
  storeUnavailable: boolean;
  fault: FiredFault | null;
  preferredDelay: number | null;
  /** `Prefer` as read, once (a request may be asked whether it forces an answer before it is applied). */
  preferences?: Preferences;
  headers: Record<string, string>;
  /** The body as read, and as parsed: a validation error of a missing body says so. */
  bytes?: Uint8Array | undefined;
  /** Whether the body was read: it can be, once. */
  bodyRead?: boolean;
  body?: unknown;
  /** The parameters as validated and coerced, once validation passed. */
  checked?: CheckedParameters;
  /** The store's operation, prepared before the admission so that the store runs it with the admission. */
  step?: PetStep;
  /** What the store's operation gave, when it ran with the admission. */
  stepResult?: PetStepResult;
  errorCode?: string;
  /** Its operation was removed on the mock's clock when the request was served (removedOperation.ts). */
  removed?: boolean;
  started: number;
}

export function newExchange(request: CoreRequest, path: string, query: Query): Exchange {
  return {
    request,
    method: request.method.toUpperCase(),
    path,
    query,
    ip: request.client ?? '127.0.0.1',
    route: undefined,
    op: undefined,
    credentials: undefined,
    apiKey: null,
    rateDecision: null,
    storeUnavailable: false,
    fault: null,
    preferredDelay: null,
    headers: {},
    started: performance.now(),
  };
}
