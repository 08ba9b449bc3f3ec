import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { FiredFault } from '../faults/faultRule.ts';
import type { ApiKeyEntry } from '../state/keyRing.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { CoreRequest } from './coreTypes.ts';
import type { RouteMatch } from './routeTable.ts';
import type { Preferences } from './readPreferences.ts';

/** One API request on its way through the pipeline: what each step learns of it, for the steps after and the recording. */
export interface Exchange {
  request: CoreRequest;
  path: string;
  query: Record<string, string | string[]>;
  ip: string;
  route: RouteMatch | undefined;
  op: SpecOperation | undefined;
  apiKey: ApiKeyEntry | null;
  rateDecision: RateDecision | null;
  storeUnavailable: boolean;
  fault: FiredFault | null;
  preferredDelay: number | null;
  /** `Prefer` as read, once (a request may be asked whether it forces an answer before it is applied). */
  preferences?: Preferences;
  unknownQuery: string[] | null;
  headers: Record<string, string>;
  /** The body as read, and as parsed: a validation error of a missing body says so. */
  bytes?: Uint8Array | undefined;
  /** Whether the body was read: it can be, once. */
  bodyRead?: boolean;
  body?: unknown;
  errorCode?: string;
  started: number;
}
