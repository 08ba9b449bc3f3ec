import type { ErrorObject } from 'ajv';

/** What is wrong with a request body before validation: its type, its size, or its JSON. */
export type BodyProblem = 'unsupported-media-type' | 'empty' | 'too-large' | 'malformed' | 'too-deep' | 'prototype-key';

/** A request body the mock cannot read: answered 415, 413 or 400 from the catalogue (toApiError). */
export class BodyError extends Error {
  override readonly name = 'BodyError';

  constructor(readonly problem: BodyProblem, message: string) {
    super(message);
  }
}

/** Where a request failed its schema: the words of the answer depend on it. */
export type RequestPart = 'body' | 'query' | 'params';

/** A request that fails the schema of one of its parts, with Ajv's errors: answered 400 (toApiError). */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';

  constructor(readonly part: RequestPart, readonly problems: readonly ErrorObject[]) {
    super(`The request's ${part} is invalid`);
  }
}
