// The package entry `pet-adoption-toolkit/conformance`: the suite as a function, for code that
// gates a deploy without a shell. It takes the CLI's options, camelCased, and returns the run's
// result; it writes report files only when given `reportDir`.
import { resolve } from 'node:path';
import { loadSpec, type LoadedSpec } from '../spec/loadSpec.ts';
import type { Depth } from './check.ts';
import { checkIds, checks as allChecks } from './checks/index.ts';
import { headerMap } from './config/extraHeaders.ts';
import { httpTransport, type Transport } from './http/transport.ts';
import { writeReports } from './reports/writeReports.ts';
import { runChecks, type ProgressEvent } from './runner.ts';
import { exitCodes, type RunReport, type Verdict } from './runReport.ts';
import type { ContractPlan } from './model/contractPlans.ts';

export interface ConformanceOptions {
  /** The API's base URL, ending in /v1. */
  baseUrl: string;
  /** A key the deployment accepts. */
  apiKey: string;
  /** A second key, ideally of another plan: every operation is also sent with it, for isolation between keys. */
  apiKey2?: string;
  /** The plan of `apiKey` (free, pro, business or enterprise), when known: its answers are held to that row of the contract's "Rate limits by plan". */
  apiKeyPlan?: ContractPlan;
  /** The plan of `apiKey2`, when known. */
  apiKey2Plan?: ContractPlan;
  /** The most bytes of one answer's body the suite reads, after decompression; past it the answer is unreadable. Default 4 MiB. */
  maxBody?: number;
  /** Others use the key during the run: rate-limit accounting judges only what still holds. Default false. */
  sharedKey?: boolean;
  /** The run's time budget in seconds: no wait ends past it, and checks not started by then are skipped. Default 300: a default run on a key of 60 a minute (the contract's Free plan) waits for up to four windows. */
  maxDuration?: number;
  /**
   * Accept a partial run. Without it, a run that left something unchecked (a check skipped whole
   * for the time budget or a quota window, generated traffic that ran no sequence) is no pass:
   * verdict `cannot-run`, exit 2. With it, such a run may pass, and every report says what it left out. Default false.
   */
  allowPartial?: boolean;
  /** Send only GET requests. Default false. */
  readOnly?: boolean;
  /** Spend the key's quota on purpose to observe a 429. Default false. */
  probeRateLimit?: boolean;
  /** The most requests the probe may spend. Default 1100. */
  probeMaxRequests?: number;
  /** Run only these checks (their ids). Default: all. */
  checks?: readonly string[];
  /** Leave these checks out. */
  excludeChecks?: readonly string[];
  /** How long to wait for each answer, in milliseconds. Default 10,000. */
  timeout?: number;
  /** Seed for generated request data. Default 1. */
  seed?: number;
  /** The longest wait for a quota window or a Retry-After, in seconds. Default 65. */
  maxWait?: number;
  /** How many generated sequences run: `quick` (default, 12), `full` (40, and random valid bodies), or a number. */
  depth?: Depth;
  /** Extra headers sent on every request, by name (`--header`); not Authorization: the key is `apiKey`. */
  headers?: Record<string, string>;
  /** Values to keep out of the reports, with what to show instead (`{ [token]: '$WAF_TOKEN' }`). */
  secrets?: Record<string, string>;
  /** Write the six reports the CLI writes (JUnit, JSON, CTRF, HAR, HTML, Markdown) into this folder, relative to the working directory. Default: none written. */
  reportDir?: string;
  /** How requests are sent. Default: `httpTransport()` (node:http, one kept-alive connection, closed after the run). Tests give one backed by an in-process app. */
  transport?: Transport;
  /** The OpenAPI document to judge by. Default: the package's spec/openapi.yaml. */
  specPath?: string;
  /** The document already loaded (by `loadSpec`), to spare reading it again. Wins over specPath. */
  spec?: LoadedSpec;
  /** Called as each check starts and ends, and for each note (waits, retries). */
  onProgress?: (event: ProgressEvent) => void;
  /** How the suite waits and reads the time; tests give a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface ConformanceResult {
  /** 0: every selected check passed; 1: one failed; 2: the run could not judge the deployment. */
  exitCode: 0 | 1 | 2;
  verdict: Verdict;
  report: RunReport;
  /** The files written, when `reportDir` was given. */
  reportPaths?: Record<string, string>;
}

/** The options cannot make a run: an unknown check id, no URL or key. The message says what to fix. */
export class ConformanceOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceOptionsError';
  }
}

/** Checks a deployment against the contract and returns the verdict, the report and (when asked) the report files. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  if (!options.baseUrl) throw new ConformanceOptionsError('no base URL. Give baseUrl (--base-url, PETS_BASE_URL).');
  if (!options.apiKey) throw new ConformanceOptionsError('no API key. Give apiKey (--api-key, PETS_API_KEY).');
  const unknown = [...(options.checks ?? []), ...(options.excludeChecks ?? [])].filter((id) => !checkIds.includes(id));
  if (unknown.length > 0) throw new ConformanceOptionsError(`Unknown check ${unknown.join(', ')}. Known checks: ${checkIds.join(', ')}.`);
  const selected = allChecks.filter((c) => (!options.checks || options.checks.includes(c.id)) && !options.excludeChecks?.includes(c.id));
  if (selected.length === 0) throw new ConformanceOptionsError('no check left to run. Check checks and excludeChecks.');

  let headers: Record<string, string>;
  try {
    headers = headerMap(Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`));
  } catch (error) {
    throw new ConformanceOptionsError(`headers: ${(error as Error).message}`);
  }
  const spec = options.spec ?? (await loadSpec(options.specPath));
  // A transport the caller gave stays open for them; the run's own is closed when the run ends.
  const transport = options.transport ?? httpTransport(options.maxBody !== undefined ? { maxBodyBytes: options.maxBody } : {});
  const report = await runChecks({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    ...(options.apiKey2 ? { apiKey2: options.apiKey2 } : {}),
    plans: { ...(options.apiKeyPlan ? { key: options.apiKeyPlan } : {}), ...(options.apiKey2Plan && options.apiKey2 ? { key2: options.apiKey2Plan } : {}) },
    sharedKey: options.sharedKey ?? false,
    maxDurationMs: (options.maxDuration ?? 600) * 1000,
    allowPartial: options.allowPartial ?? false,
    timeoutMs: options.timeout ?? 10_000,
    readOnly: options.readOnly ?? false,
    probeRateLimit: options.probeRateLimit ?? false,
    probeMaxRequests: options.probeMaxRequests ?? 1100,
    seed: options.seed ?? 1,
    depth: options.depth ?? 'quick',
    spec,
    checks: selected,
    allChecks,
    transport,
    maxWaitMs: (options.maxWait ?? 65) * 1000,
    headers,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.now ? { now: options.now } : {}),
  }).finally(() => (transport === options.transport ? undefined : transport.close?.()));
  const exitCode = exitCodes[report.verdict];
  if (options.reportDir === undefined) return { exitCode, verdict: report.verdict, report };
  const reportPaths = await writeReports(report, resolve(options.reportDir));
  return { exitCode, verdict: report.verdict, report, reportPaths };
}

export { checkIds };
export type { Depth } from './check.ts';
export type { Check, CheckContext, Evidence, Finding, OperationResult, Severity } from './check.ts';
export type { CheckReport, ExchangeSummary, RunReport, Verdict } from './runReport.ts';
export type { ProgressEvent } from './runner.ts';
export type { HttpTransportOptions, Transport, TransportRequest, TransportResponse } from './http/transport.ts';
export { TransportError, httpTransport } from './http/transport.ts';
// The validating proxy, from code: `startProxy({ target, port })`, then `judge()`, `live()`, `stats()` and `close()`.
export { startProxy, proxyReportPath, type ProxyOptions, type ProxyStats, type RunningProxy } from './proxy/startProxy.ts';
export type { LiveReport, ProxyFinding, ProxyVerdict } from './proxy/judgeProxyTraffic.ts';
