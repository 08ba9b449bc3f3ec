import type { LoadedSpec } from '../spec/loadSpec.ts';
import type { Pet } from '../spec/types.ts';
import { Outcomes, type Check, type CheckContext, type RunOptions } from './check.ts';
import type { ApiRequest, Exchange } from './http/exchange.ts';
import { PacedClient, QuotaExhaustedError, type ClientEvent } from './http/pacedClient.ts';
import { TransportError, type Transport } from './http/transport.ts';
import { checkStatus, summarizeExchange, summarizeUnanswered, type CheckReport, type ExchangeSummary, type RunReport, type UnansweredSummary } from './runReport.ts';
import { SpecValidators } from './specValidators.ts';
import { seededRandom } from './seededRandom.ts';
import { exactId } from './idTexts.ts';
import { toolName, toolVersion } from './version.ts';

export interface RunConfig extends RunOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  spec: LoadedSpec;
  checks: readonly Check[];
  transport: Transport;
  onProgress?: (event: ProgressEvent) => void;
  /** The longest wait for a quota window or a Retry-After. */
  maxWaitMs?: number;
  /** Extra headers for every request (`--header`); see `config/extraHeaders.ts`. */
  headers?: Record<string, string>;
  /** Values to keep out of the reports, with what to show instead (`$WAF_TOKEN`). */
  secrets?: Record<string, string>;
  /** For tests: how the client waits. */
  sleep?: (ms: number) => Promise<void>;
}

export type ProgressEvent =
  | { kind: 'check-start'; check: Check }
  | { kind: 'check-end'; check: Check; report: CheckReport }
  | { kind: 'note'; message: string };

/** The run cannot go on: the target is unreachable or does not answer like this API. */
export class CannotRunError extends Error {
  /** What the run had sent when it stopped, for the reports (set by `runConformance`). */
  partial?: { runId: string; exchanges: ExchangeSummary[]; unanswered: UnansweredSummary[] };

  constructor(message: string) {
    super(message);
    this.name = 'CannotRunError';
  }
}

const phases: Check['phase'][] = ['active', 'probe', 'passive'];

/**
 * Runs the checks against one deployment. A baseline of plain reads comes first (and tells whether
 * the base URL answers like this API at all); then the active checks, the rate-limit probe, and the
 * passive checks, which judge every exchange the others made.
 */
export async function runConformance(config: RunConfig): Promise<RunReport> {
  const started = Date.now();
  const notes: string[] = [];
  const note = (message: string) => {
    notes.push(message);
    config.onProgress?.({ kind: 'note', message });
  };
  const client = new PacedClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    transport: config.transport,
    timeoutMs: config.timeoutMs,
    userAgent: `${toolName}/${toolVersion}`,
    ...(config.sleep ? { sleep: config.sleep } : {}),
    ...(config.maxWaitMs !== undefined ? { maxWaitMs: config.maxWaitMs } : {}),
    headers: config.headers,
    secrets: config.secrets,
    onEvent: (event: ClientEvent) => note(describeEvent(event)),
  });
  const validators = new SpecValidators(config.spec);
  const random = seededRandom(config.seed);
  let knownPets: Pet[] = [];
  const idTextOf = new Map<Pet, string>();
  let currentCheck = 'baseline';

  const ctx: CheckContext = {
    spec: config.spec,
    options: config,
    validators,
    apiKey: config.apiKey,
    send: (request: ApiRequest, options) => client.send(currentCheck, request, options),
    get exchanges() {
      return client.exchanges;
    },
    knownPets: () => knownPets,
    petPath: (pet) => `/pets/${idTextOf.get(pet) ?? String(pet.id)}`,
    random,
    keyQuota: () => client.quota('key'),
  };

  let listed: Awaited<ReturnType<typeof baseline>>;
  try {
    listed = await baseline(ctx, config.baseUrl);
  } catch (error) {
    if (error instanceof CannotRunError) error.partial = { runId: client.runId, exchanges: client.exchanges.map(summarizeExchange), unanswered: client.unanswered.map(summarizeUnanswered) };
    throw error;
  }
  knownPets = listed.pets;
  knownPets.forEach((pet, index) => idTextOf.set(pet, exactId(pet.id, listed.body, listed.allPets ? index : -1)));

  const reports = new Map<string, CheckReport>();
  for (const phase of phases) {
    for (const check of config.checks.filter((c) => c.phase === phase)) {
      currentCheck = check.id;
      config.onProgress?.({ kind: 'check-start', check });
      const checkStarted = Date.now();
      const outcomes = new Outcomes(check.operations);
      const skipReason = check.guard?.(ctx);
      if (skipReason) {
        outcomes.skipAll(skipReason);
      } else {
        try {
          await check.run(ctx, outcomes);
        } catch (error) {
          if (error instanceof QuotaExhaustedError) {
            outcomes.skipAll(error.message);
          } else if (error instanceof TransportError) {
            const last = client.exchanges.at(-1);
            outcomes.fail(last?.checkId === check.id ? last.operationId : check.operations[0]!, `The deployment did not answer: ${error.message}.`);
          } else {
            throw error;
          }
        }
      }
      const operations = outcomes.results();
      const report: CheckReport = {
        id: check.id,
        title: check.title,
        severity: check.severity,
        description: check.description,
        status: checkStatus(operations),
        operations,
        durationMs: Date.now() - checkStarted,
      };
      reports.set(check.id, report);
      config.onProgress?.({ kind: 'check-end', check, report });
    }
  }

  const checks = config.checks.map((c) => reports.get(c.id)!);
  const ops = checks.flatMap((c) => c.operations);
  return {
    verdict: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed',
    tool: { name: toolName, version: toolVersion },
    runId: client.runId,
    baseUrl: config.baseUrl,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    options: { readOnly: config.readOnly, probeRateLimit: config.probeRateLimit, seed: config.seed, checks: config.checks.map((c) => c.id) },
    requests: {
      total: client.exchanges.length,
      withKey: client.exchanges.filter((e) => e.bucket === 'key').length,
      withoutKey: client.exchanges.filter((e) => e.bucket === 'anonymous').length,
    },
    notes,
    checks,
    exchanges: client.exchanges.map(summarizeExchange),
    ...(client.unanswered.length > 0 ? { unanswered: client.unanswered.map(summarizeUnanswered) } : {}),
    summary: {
      passed: checks.filter((c) => c.status === 'passed').length,
      failed: checks.filter((c) => c.status === 'failed').length,
      skipped: checks.filter((c) => c.status === 'skipped').length,
      warnings: ops.reduce((n, o) => n + o.findings.filter((f) => f.level === 'warning').length, 0),
    },
  };
}

/**
 * Plain reads every check can build on: the default list (which also proves the base URL is this
 * API), one pet by id, and the store orders. Returns the pets listed.
 */
async function baseline(ctx: CheckContext, baseUrl: string): Promise<{ pets: Pet[]; body: string; allPets: boolean }> {
  let list: Exchange;
  try {
    list = await ctx.send({ method: 'GET', path: '/pets', auth: 'key', operationId: 'listPets', intent: 'valid' });
  } catch (error) {
    if (error instanceof TransportError) throw new CannotRunError(`Cannot reach ${baseUrl}: ${error.message}. Check --base-url and that the deployment is up.`);
    if (error instanceof QuotaExhaustedError) throw new CannotRunError(error.message);
    throw error;
  }
  const { status, json, headers } = list.response;
  const looksLikeApi = (status === 200 && Array.isArray(json)) || (status >= 400 && status < 600 && json !== null && typeof json === 'object' && !Array.isArray(json) && status !== 404);
  if (!looksLikeApi) {
    const type = headers['content-type'] ?? 'no content type';
    throw new CannotRunError(`${baseUrl} does not answer like the Pet Adoption API: GET ${baseUrl}/pets gave ${status} (${type}). Check that --base-url ends with the API's /v1.`);
  }
  // A refused key leaves nothing to judge: every keyed check would see only 401s (issue 9 moves this into a preflight).
  if (status === 401 || status === 403) throw new CannotRunError(`The deployment refused the API key: GET ${baseUrl}/pets with it answered ${status}. Check that --api-key (or PETS_API_KEY) holds a valid, unexpired key for this deployment.`);
  const items = status === 200 ? (json as unknown[]) : [];
  const pets = items.filter(isPet);
  const first = pets[0];
  // The ids in the text line up with the pets only when every item is a pet.
  const allPets = pets.length === items.length;
  if (first) await ctx.send({ method: 'GET', path: `/pets/${exactId(first.id, list.response.body, allPets ? 0 : -1)}`, auth: 'key', operationId: 'getPet', intent: 'valid' });
  await ctx.send({ method: 'GET', path: '/store/orders', auth: 'key', operationId: 'listStoreOrders', intent: 'valid' });
  return { pets, body: list.response.body, allPets };
}

function isPet(value: unknown): value is Pet {
  const pet = value as Pet | null;
  return pet !== null && typeof pet === 'object' && typeof pet.id === 'number' && Number.isInteger(pet.id) && typeof pet.categoryId === 'number';
}

function describeEvent(event: ClientEvent): string {
  const quota = event.bucket === 'key' ? 'the API key\'s quota' : 'the anonymous quota';
  return event.kind === 'wait-for-window'
    ? `Waited ${(event.ms / 1000).toFixed(1)} s for ${quota} to reset rather than spend its last request.`
    : `Unexpected 429 on request #${event.seq} (${quota}); waiting ${(event.waitMs / 1000).toFixed(1)} s as Retry-After and backoff say (try ${event.attempt + 1}).`;
}
