import type { IHttpOperationConfig, IHttpRequest } from '@stoplight/prism-http';
import { pino } from 'pino';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';

export interface PrismAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface PrismRequest {
  op: SpecOperation;
}

export type PrismResponder = (request: PrismRequest, mock?: Partial<IHttpOperationConfig>) => Promise<PrismAnswer>;

/**
 * Answers an operation from the OpenAPI document through Prism: its static example by default,
 * or what `mock` asks for (a status code, a named example, dynamic data, a seed). Prism checks
 * neither security nor the request, because the mock's own hooks already did.
 *
 * Prism takes most of a second to load, and most sessions never need it (it answers only
 * GET /store/orders and `Prefer`), so it is loaded on the first request that does.
 */
export function createPrismResponder(spec: LoadedSpec, logLevel: string): PrismResponder {
  let loaded: Promise<PrismResponder> | undefined;
  return (request, mock) => {
    loaded ??= loadPrism(spec, logLevel);
    return loaded.then((respond) => respond(request, mock));
  };
}

async function loadPrism(spec: LoadedSpec, logLevel: string): Promise<PrismResponder> {
  const { createInstance, getHttpOperationsFromSpec } = await import('@stoplight/prism-http');
  const operations = await getHttpOperationsFromSpec(spec.document);
  // Prism 5.12 logs with a `success` level that plain pino does not have.
  const logger = pino({ customLevels: { success: 11 }, level: logLevel, name: 'prism' });
  const prism = createInstance(
    { isProxy: false, mock: { dynamic: false }, checkSecurity: false, validateRequest: false, validateResponse: false, errors: false, upstreamProxy: undefined },
    { logger: logger as never },
  );
  return async ({ op }, mock = {}) => {
    // Prism is asked for the operation, not handed the client's request: the mock has already
    // routed, authenticated and validated it, and Prism's own routing and content negotiation
    // would only add ways to fail (a trailing slash, an Accept without JSON).
    const request: IHttpRequest = { method: op.method, url: { path: op.path.replace(/\{[^}]+\}/g, '1') }, headers: {} };
    const result = await prism.request(request, operations, {
      isProxy: false,
      checkSecurity: false,
      validateRequest: false,
      validateResponse: false,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false, ...mock },
    })();
    if (result._tag === 'Left') throw result.left;
    const { statusCode, headers: answerHeaders, body: answerBody } = result.right.output;
    return { status: statusCode, headers: (answerHeaders ?? {}) as Record<string, string>, body: answerBody };
  };
}
