// The suite's passive checks and its model of the contract, run over traffic the proxy saw rather
// than traffic the suite generated: the same judges, fed any stream of exchanges (issue 19).
import { randomUUID } from 'node:crypto';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { Outcomes, type Check, type CheckContext } from '../check.ts';
import { contentType } from '../checks/contentType.ts';
import { rateLimitHeaders } from '../checks/rateLimitHeaders.ts';
import { responseSchemaCheck } from '../checks/responseSchema.ts';
import { statusCodes } from '../checks/statusCodes.ts';
import { parseBody, type Exchange, type UnansweredRequest } from '../http/exchange.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import { responseOf } from '../http/transport.ts';
import { coverageOf } from '../model/coverage.ts';
import { modelChecks } from '../model/modelChecks.ts';
import { viewRequest } from '../model/requestView.ts';
import { runModel } from '../model/runModel.ts';
import { checkStatus, summarizeExchange, summarizeUnanswered, type CheckReport, type RunReport, type Verdict } from '../runReport.ts';
import { SpecValidators } from '../specValidators.ts';
import { toolName, toolVersion } from '../version.ts';
import { categoriesIn, classifyRequest } from './classifyRequest.ts';
import { keyBook, redactWith, type KeyBook } from './clientKeys.ts';
import type { ProxyRecord } from './proxyRecord.ts';
import { validCreates } from './validCreates.ts';

/** The checks that judge traffic they did not send: the same objects the suite's passive phase runs. */
export const proxyChecks: readonly Check[] = [statusCodes, validCreates, contentType, responseSchemaCheck, rateLimitHeaders, ...modelChecks];

/** The contract's words for the checks outside the model, which carry no rule of their own. */
const checkQuotes: Record<string, string> = {
  'status-codes': 'Responses: | Status | Body | (each operation documents its statuses; "Error responses carry an Error body")',
  'content-type': 'The request body is required, is `application/json` … Error responses carry an Error body (`code`, `message`, `status`)',
  'response-schema': 'Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code.',
  'rate-limit-headers': 'Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.',
  'valid-creates': '400 | Error. The body is missing required fields or has invalid values.',
};

export interface ProxyJudgeOptions {
  spec: LoadedSpec;
  validators?: SpecValidators;
  /** The deployment's base URL (`https://staging.example/v1`): requests outside its path are forwarded, not judged. */
  target: string;
  /** Others use the keys beside the proxy: rate accounting judges only what still holds. */
  sharedKey: boolean;
  startedAt: number;
  now: number;
  runId?: string;
  /** Exchanges forwarded but not kept for judging (past the proxy's memory budget). */
  unkept?: number;
}

/** A proxy finding as `GET /__proxy/report` gives it. */
export interface ProxyFinding {
  check: string;
  rule: string;
  level: 'failure' | 'warning';
  /** The contract's sentence the finding rests on. */
  quote: string;
  message: string;
  occurrences: number;
  exchange?: { method: string; path: string; status: number };
}

type Span = NonNullable<ProxyRecord['span']>;

/** What the proxy judged: the suite's report, and its findings as the live report lists them. */
export interface ProxyVerdict {
  report: RunReport;
  findings: ProxyFinding[];
}

export async function judgeProxyTraffic(records: readonly ProxyRecord[], options: ProxyJudgeOptions): Promise<ProxyVerdict> {
  const validators = options.validators ?? new SpecValidators(options.spec);
  const basePath = new URL(options.target).pathname.replace(/\/+$/, '');
  const origin = new URL(options.target).origin;
  const book = keyBook(records);
  const notes: string[] = [
    options.sharedKey
      ? 'Others may use the keys beside the proxy (--shared-key): rate-limit accounting judged only what holds whoever else spends the window.'
      : 'Each key is assumed to reach the deployment only through this proxy: rate-limit accounting counts every request with it. Give --shared-key when other clients use the same keys directly.',
  ];
  const exchanges: Exchange[] = [];
  const spans: Span[] = [];
  const unanswered: UnansweredRequest[] = [];
  let outside = 0;
  let outsideWithKey = 0;
  let beforeAccepted = 0;
  // The categories of the deployment's own pets, as its answers show them: a create with another may be refused.
  const categories = new Set<string>();
  for (const record of records) {
    if (record.url !== basePath && !record.url.startsWith(`${basePath}/`) && !record.url.startsWith(`${basePath}?`)) {
      outside++;
      if (record.requestHeaders.authorization !== undefined) outsideWithKey++;
      continue;
    }
    const secret = /^bearer +(\S+)$/i.exec(record.requestHeaders.authorization ?? '')?.[1];
    const acceptedFrom = secret === undefined ? undefined : book.acceptedFrom.get(secret);
    if (acceptedFrom !== undefined && record.seq < acceptedFrom) {
      beforeAccepted++;
      continue;
    }
    const request = redactedRequest(record, book, origin);
    const path = request.url.slice(origin.length + basePath.length) || '/';
    if (!record.response) {
      unanswered.push({ checkId: 'proxy', operationId: 'unlisted', afterSeq: exchanges.length, sentAt: record.sentAt, durationMs: 0, request, error: record.error ?? 'no answer' });
      continue;
    }
    const exchange = exchangeOf(record, record.response, request, path, book, validators, exchanges.length + 1, categories);
    exchanges.push(exchange);
    spans.push(record.span ?? { from: record.sentAt, to: record.sentAt + record.response.durationMs });
    for (const id of categoriesIn(exchange.operationId, exchange.response.status, exchange.response.value)) categories.add(id);
  }
  markBursts(exchanges, spans);
  markThrottled(exchanges);
  if (outside > 0) notes.push(`${outside} ${outside === 1 ? 'request' : 'requests'} outside ${basePath || '/'} went through unjudged: the contract covers the API under its base URL only.`);
  if (beforeAccepted > 0) notes.push(`${beforeAccepted} ${beforeAccepted === 1 ? 'request' : 'requests'} with a key sent before the deployment first accepted that key were not judged: the proxy cannot tell a key created meanwhile from one wrongly refused.`);
  if (options.unkept) notes.push(`${options.unkept} exchanges past the proxy's memory budget were forwarded but not judged.`);
  // Requests the model does not see may have spent a key's window: counting only those it saw would
  // call the deployment's Remaining wrong. So it judges as with --shared-key: only what still holds.
  const unseen = [...(options.unkept ? [`${options.unkept} unjudged`] : []), ...(outsideWithKey > 0 ? [`${outsideWithKey} outside ${basePath || '/'} with credentials`] : [])];
  const sharedKey = options.sharedKey || unseen.length > 0;
  if (!options.sharedKey && unseen.length > 0) notes[0] = `Rate-limit accounting judged only what holds whoever else spends the window, as with --shared-key: requests the proxy forwarded but did not judge (${unseen.join(', ')}) may have spent it.`;

  const model = runModel(exchanges, { sharedKey }, unanswered);
  const ctx = passiveContext({ ...options, sharedKey }, validators, exchanges, () => model);
  const checks: CheckReport[] = [];
  for (const check of proxyChecks) {
    const outcomes = new Outcomes(check.operations);
    await check.run(ctx, outcomes);
    const operations = outcomes.results();
    checks.push({ id: check.id, title: check.title, severity: check.severity, description: check.description, status: checkStatus(operations), operations, durationMs: 0 });
  }

  const unavailable = exchanges.filter((e) => isUnavailable(e.response.status)).length;
  let verdict: Verdict;
  let reason: string | undefined;
  if (exchanges.length === 0 && unanswered.length > 0) {
    verdict = 'cannot-run';
    reason = `nothing could be judged: the deployment answered none of the ${unanswered.length} ${unanswered.length === 1 ? 'request' : 'requests'} under ${options.target} (${unanswered[0]!.error}).`;
  } else if (exchanges.length === 0) {
    verdict = 'cannot-run';
    reason = `nothing could be judged: no exchange under ${options.target} went through the proxy${records.length > 0 ? ` (of ${records.length} forwarded)` : ''}. Point the clients at the proxy, under the base URL's path.`;
  } else if (unavailable * 2 > exchanges.length) {
    verdict = 'cannot-run';
    reason = `the deployment was unavailable (${unavailable} of ${exchanges.length} answers 502, 503 or 504), so its traffic cannot judge it.`;
  } else verdict = checks.some((c) => c.status === 'failed') ? 'failed' : 'passed';

  const ops = checks.flatMap((c) => c.operations);
  const report: RunReport = {
    tool: { name: toolName, version: toolVersion },
    runId: options.runId ?? randomUUID(),
    baseUrl: options.target,
    startedAt: new Date(options.startedAt).toISOString(),
    durationMs: options.now - options.startedAt,
    verdict,
    ...(reason !== undefined ? { reason } : {}),
    options: { readOnly: true, probeRateLimit: false, seed: 0, depth: 'proxy', checks: checks.map((c) => c.id), sharedKey: options.sharedKey },
    requests: {
      total: records.length,
      withKey: exchanges.filter((e) => e.bucket !== 'anonymous').length,
      withoutKey: exchanges.filter((e) => e.bucket === 'anonymous').length,
      retried: 0,
      failedAtTransport: unanswered.length,
    },
    notes,
    checks,
    coverage: coverageOf(model.judgements, checks, exchanges, { probeRateLimit: false, readOnly: false, secondKey: false, sharedKey }),
    exchanges: exchanges.map(summarizeExchange),
    ...(unanswered.length > 0 ? { unanswered: unanswered.map(summarizeUnanswered) } : {}),
    summary: {
      passed: checks.filter((c) => c.status === 'passed').length,
      failed: checks.filter((c) => c.status === 'failed').length,
      skipped: checks.filter((c) => c.status === 'skipped').length,
      warnings: ops.reduce((n, o) => n + o.findings.filter((f) => f.level === 'warning').length, 0),
    },
  };
  const findings = checks.flatMap((check) =>
    check.operations.flatMap((op) =>
      op.findings.map((f): ProxyFinding => ({
        check: check.id,
        rule: f.rule?.id ?? check.id,
        level: f.level,
        quote: f.rule?.quote ?? checkQuotes[check.id] ?? check.title,
        message: f.message,
        occurrences: f.occurrences,
        ...(f.evidence ? { exchange: { method: f.evidence.request.method, path: new URL(f.evidence.request.url).pathname + new URL(f.evidence.request.url).search, status: f.evidence.response.status } } : {}),
      })),
    ),
  );
  return { report, findings };
}

/**
 * Requests in flight together are a burst, as the suite marks its own parallel requests: the
 * deployment may have served them in another order than they arrived, so the model judges them
 * as one group (no Remaining compared within it), never one after the other.
 */
function markBursts(exchanges: Exchange[], spans: readonly Span[]): void {
  let burst = 0;
  let groupEnd = -Infinity;
  let group: Exchange[] = [];
  const close = () => {
    if (group.length > 1) {
      burst++;
      for (const e of group) e.burst = burst;
    }
  };
  exchanges.forEach((exchange, i) => {
    const span = spans[i]!;
    // Only a request that arrived after every earlier answer had ended can have been counted after
    // them; one that arrived as an answer ended may have been counted before it.
    if (span.from > groupEnd) {
      close();
      group = [];
    }
    group.push(exchange);
    groupEnd = Math.max(groupEnd, span.to);
  });
  close();
}

/**
 * A key's requests after a 429, until the deployment serves that key again, are held to what the
 * suite holds its own requests past a 429 to: "Repeated requests after a 429 response may lead to
 * a temporary ban of the API key", and the contract does not show the ban's answer, so a status it
 * does not document there is a warning, not a failure.
 */
function markThrottled(exchanges: Exchange[]): void {
  const throttled = new Set<string>();
  for (const exchange of exchanges) {
    const key = viewRequest(exchange).credential;
    if (key.kind !== 'key') continue;
    const { status } = exchange.response;
    if (throttled.has(key.key) && exchange.intent === 'valid') exchange.intent = 'over-limit';
    if (status === 429) throttled.add(key.key);
    else if (status < 400) throttled.delete(key.key);
  }
}

function redactedRequest(record: ProxyRecord, book: KeyBook, origin: string): Exchange['request'] {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.requestHeaders)) {
    // The header that carries the key is replaced whole, however short the key.
    const token = name === 'authorization' ? book.tokens.find(([secret]) => value.endsWith(` ${secret}`)) : undefined;
    headers[name] = token ? `${value.slice(0, value.length - token[0].length)}${token[1]}` : redactWith(book, value);
  }
  return {
    method: record.method,
    url: `${origin}${redactWith(book, record.url)}`,
    headers,
    ...(record.requestBody !== undefined ? { body: redactWith(book, record.requestBody) } : {}),
  };
}

function exchangeOf(record: ProxyRecord, answer: NonNullable<ProxyRecord['response']>, request: Exchange['request'], path: string, book: KeyBook, validators: SpecValidators, seq: number, categories: ReadonlySet<string>): Exchange {
  const grouped: Record<string, string[]> = {};
  for (const [name, value] of answer.rawHeaders) (grouped[name] ??= []).push(redactWith(book, value));
  const response = responseOf(answer.status, grouped, answer.bytes, answer.truncated ?? false);
  const body = redactWith(book, response.body);
  const view = viewRequest({ path, request });
  return {
    seq,
    checkId: 'proxy',
    operationId: view.operation ?? 'unlisted',
    intent: classifyRequest(view, validators, { categories }, { status: response.status, headers: response.headers }),
    path,
    bucket: view.credential.kind === 'key' ? 'key' : 'anonymous',
    sentAt: record.sentAt,
    request,
    response: { ...response, body, ...(answer.incomplete !== undefined ? { incomplete: answer.incomplete } : {}), ...parseBody(body), durationMs: answer.durationMs },
    retries: 0,
  };
}

/** What a passive check may use, over recorded traffic: nothing here sends. */
function passiveContext(options: ProxyJudgeOptions, validators: SpecValidators, exchanges: readonly Exchange[], model: CheckContext['model']): CheckContext {
  const sendsNothing = () => Promise.reject(new Error('The proxy sends nothing of its own.'));
  return {
    spec: options.spec,
    options: { readOnly: true, depth: 'quick', probeRateLimit: false, probeMaxRequests: 0, seed: 0, sharedKey: options.sharedKey },
    validators,
    apiKey: '',
    send: sendsNothing,
    exchanges,
    knownPets: () => [],
    petPath: (pet) => `/pets/${pet.idText}`,
    random: () => 0,
    runMark: '',
    keyQuota: () => ({}),
    keylessSent: () => 0,
    otherSourceAddress: async () => undefined,
    anonymousQuota: () => ({}),
    model,
    timeLeftMs: () => 0,
    reproduce: () => {},
  };
}
