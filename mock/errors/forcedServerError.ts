import { ApiError } from './errorCatalogue.ts';

/**
 * A 5xx the client asked for (`Prefer: code=503`, a fault rule): answered as a real one, but no
 * fault of the mock, so the server log does not report it as one (logAnswerError).
 */
export class ForcedServerError extends ApiError {
  /** What forced it, for the log: `Prefer: code=503`, `the fault rule fault-2`. */
  readonly forcedBy: string;

  constructor(code: ConstructorParameters<typeof ApiError>[0], message: string, headers: Record<string, string>, forcedBy: string) {
    super(code, message, headers);
    this.forcedBy = forcedBy;
  }
}
