// What every in-process host of the mock offers its adapters (MSW, Playwright, the Vite plugin):
// plain requests in, plain answers out, and the control handle. Nothing here needs Node.
import type { LoadedSpec } from '../../spec/specModel.ts';
import type { CoreAnswer, CoreRequest } from '../core/coreTypes.ts';
import type { Awaitable } from '../state/awaitable.ts';
import type { MockAddress } from './mockAddress.ts';
import type { PetsMockControl } from './petsMockControl.ts';

/** A request as every surface can give it: fetch's Request, Playwright's route.request(). */
export interface PlainRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | undefined;
  /** `arrival()` when the host received it: when the client sent it, as near as the mock knows. */
  arrivedAt?: number | undefined;
}

export interface PlainResponse {
  status: number;
  /** Header names in lower case; a header sent more than once is joined with ', '. */
  headers: Record<string, string>;
  /** null when the answer has no body (204, HEAD). */
  body: Uint8Array<ArrayBuffer> | null;
}

export interface PetsMockHost {
  address: MockAddress;
  /** The contract the mock serves: its operations become MSW handlers. */
  spec: LoadedSpec;
  /** The largest request body the mock reads, in bytes (a profile's, else `bodyLimit`, else 1 MiB): a host reads a body to one byte past it. */
  readonly bodyLimit: number;
  control: PetsMockControl;
  /**
   * The mock's own path and query for a URL it answers (`/v1/pets?limit=5`, `/__mock/reset`), or
   * undefined for a URL that is not the mock's: another origin, another path at its origin, or the
   * control API when it is off. Every host hands the mock exactly these URLs and lets the rest go by.
   */
  pathOf(url: string | URL): string | undefined;
  /**
   * Answers a request exactly as the HTTP server would, in this process and on no timer a test can
   * fake. Rejects with an error whose `code` is `ECONNRESET` when a fault rule drops the connection.
   */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * As `handle`, with the body as the mock's text: for a host whose Response takes text (fetch's,
   * MSW's), no bytes made only to be read back. The answer itself when no step had to wait (in
   * memory, a read), else a promise; throws, or rejects, as `handle` rejects.
   */
  respond(request: PlainRequest): Awaitable<CoreAnswer>;
  /**
   * Answers a request a Node server holds (nodeHttp.ts's answerRaw, as the pets-mock server does):
   * its path and query on the server (`/api/v1/pets`), its body read when the mock asks for it, from
   * the client address the host read; Location is written back under the mock's address.
   */
  answer(request: CoreRequest): Promise<CoreAnswer>;
  /** The mock's clock now, for a request handed over now (`arrivedAt`): the host calls it first, before any await. */
  arrival(): number;
  close(): Promise<void>;
}

/** A fault rule dropped the connection: the host answers with its own network error. */
export function isConnectionReset(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ECONNRESET';
}
