// Runs the suite in-process against the project's mock, through a transport backed by app.inject(),
// optionally bent by a Transform from testing/deployment.ts: the fixtures of the report tests.
import type { FastifyInstance } from 'fastify';
import { buildMock } from '../../../mock/index.ts';
import { generatePets } from '../../../fixtures/generatePets.ts';
import { loadSpec, type LoadedSpec } from '../../../spec/loadSpec.ts';
import { checks as allChecks } from '../../checks/index.ts';
import type { Transport } from '../../http/transport.ts';
import type { RunReport } from '../../runReport.ts';
import type { Req, Res, Transform } from '../../testing/deployment.ts';
import { runToReport } from '../runToReport.ts';

export const inProcessBaseUrl = 'http://pets.test/v1';

/** A Transport that hands each request to `app.inject()`, through `transform` when given. */
export function injectTransport(app: FastifyInstance, transform: Transform = (req, forward) => forward(req), seen?: Req[]): Transport {
  const forward = async (req: Req): Promise<Res> => {
    const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, ...(req.body !== '' ? { payload: req.body } : {}) });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    return { status: res.statusCode, headers, body: res.body };
  };
  return {
    async send(request) {
      const url = new URL(request.url);
      const req: Req = { method: request.method, url: `${url.pathname}${url.search}`, headers: request.headers, body: request.body ?? '' };
      seen?.push(req);
      return transform(req, forward);
    },
  };
}

let spec: Promise<LoadedSpec> | undefined;

export interface InProcessRun {
  transform?: Transform;
  checks?: string[];
  apiKey?: string;
  headers?: Record<string, string>;
  secrets?: Record<string, string>;
  /** Every request as the deployment received it. */
  seen?: Req[];
}

/** Runs the suite against a fresh mock (60 pets) and returns its report, cannot-run included. */
export async function runInProcess(run: InProcessRun = {}): Promise<RunReport> {
  spec ??= loadSpec();
  const app = await buildMock({ spec: await spec, pets: generatePets({ count: 60 }) });
  try {
    return await runToReport({
      baseUrl: inProcessBaseUrl,
      apiKey: run.apiKey ?? 'demo-pro',
      timeoutMs: 10_000,
      readOnly: false,
      probeRateLimit: false,
      probeMaxRequests: 1100,
      seed: 1,
      spec: await spec,
      checks: run.checks ? allChecks.filter((c) => run.checks!.includes(c.id)) : allChecks,
      transport: injectTransport(app, run.transform, run.seen),
      ...(run.headers ? { headers: run.headers } : {}),
      ...(run.secrets ? { secrets: run.secrets } : {}),
      // No test waits on a clock: a wait the run asks for is not taken.
      sleep: async () => {},
    });
  } finally {
    await app.close();
  }
}
