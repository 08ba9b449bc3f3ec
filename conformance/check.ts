import type { ApiRequest, Exchange } from './http/exchange.ts';
import type { LoadedSpec } from '../spec/loadSpec.ts';
import type { Pet } from '../spec/types.ts';
import type { SpecValidators } from './specValidators.ts';
import { curlCommand } from './http/curlCommand.ts';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface Evidence {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; bodyExcerpt: string };
  /** Reproduces the request; the key reads `$PETS_API_KEY`. */
  curl: string;
}

export interface Finding {
  /** A failure fails the run; a warning is reported and does not. */
  level: 'failure' | 'warning';
  message: string;
  evidence?: Evidence;
  /** How many answers showed the same problem; the evidence is the first. */
  occurrences: number;
}

export interface OperationResult {
  operationId: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped. */
  reason?: string;
  findings: Finding[];
}

export interface RunOptions {
  readOnly: boolean;
  probeRateLimit: boolean;
  /** The most requests the rate-limit probe may spend to reach a 429. */
  probeMaxRequests: number;
  seed: number;
}

/** What a check may use: it never learns whether it talks to a live URL or an in-process app. */
export interface CheckContext {
  spec: LoadedSpec;
  options: RunOptions;
  validators: SpecValidators;
  /** The run's key, for checks that must present it wrongly; evidence shows it as `$PETS_API_KEY`. */
  apiKey: string;
  /** Sends a request on behalf of the running check. */
  send(request: ApiRequest, options?: { expect429?: boolean }): Promise<Exchange>;
  /** Every exchange of the run so far, in order. */
  readonly exchanges: readonly Exchange[];
  /** Pets the deployment returned from a plain `GET /pets`, for checks that need real ids. */
  knownPets(): Pet[];
  /** The path of a known pet, `/pets/{id}`, with its id exact even above 2^53. */
  petPath(pet: Pet): string;
  /** The run's seeded random numbers in [0, 1). */
  random(): number;
  /** What the last answer said of the key's quota. */
  keyQuota(): { remaining?: number; resetAt?: number };
}

export interface Check {
  /** Stable: the CLI flag value, the report key and the README heading. */
  id: string;
  title: string;
  severity: Severity;
  /** What the check catches. */
  description: string;
  /** Operations it reports on, by operationId. */
  operations: readonly string[];
  /**
   * `passive` checks judge the exchanges the others made and send nothing themselves; they run last.
   * `probe` checks spend quota on purpose and run after everything else.
   */
  phase: 'active' | 'passive' | 'probe';
  /** A reason the check does not apply to this run, or undefined when it does. */
  guard?(ctx: CheckContext): string | undefined;
  run(ctx: CheckContext, report: Outcomes): Promise<void>;
}

export const excerptLength = 600;

export function evidenceOf(exchange: Exchange): Evidence {
  const body = exchange.response.body;
  return {
    request: exchange.request,
    response: {
      status: exchange.response.status,
      headers: exchange.response.headers,
      bodyExcerpt: body.length > excerptLength ? `${body.slice(0, excerptLength)}…` : body,
    },
    curl: curlCommand(exchange.request),
  };
}

/** Collects a check's verdicts per operation. An operation never examined is skipped, never passed. */
export class Outcomes {
  #examined = new Set<string>();
  #skipped = new Map<string, string>();
  #findings = new Map<string, Finding[]>();

  constructor(readonly operations: readonly string[]) {}

  /** The operation was examined (and passes unless a failure is added). */
  examined(operationId: string): void {
    this.#examined.add(operationId);
  }

  /**
   * Records a failure. Findings with the same `kind` on one operation are counted on the first,
   * so a problem every answer shares is one finding, not forty.
   */
  fail(operationId: string, message: string, exchange?: Exchange, kind?: string): void {
    this.#add(operationId, 'failure', message, exchange, kind);
  }

  warn(operationId: string, message: string, exchange?: Exchange, kind?: string): void {
    this.#add(operationId, 'warning', message, exchange, kind);
  }

  skip(operationId: string, reason: string): void {
    if (!this.#skipped.has(operationId)) this.#skipped.set(operationId, reason);
  }

  skipAll(reason: string): void {
    for (const op of this.operations) this.skip(op, reason);
  }

  /** Checks a condition on an exchange: examined either way, a failure when it does not hold. */
  expect(condition: boolean, exchange: Exchange, message: string, kind?: string): boolean {
    this.examined(exchange.operationId);
    if (!condition) this.fail(exchange.operationId, message, exchange, kind);
    return condition;
  }

  results(): OperationResult[] {
    const operations = [...new Set([...this.operations, ...this.#findings.keys()])];
    return operations.map((operationId) => {
      const findings = this.#findings.get(operationId) ?? [];
      if (findings.some((f) => f.level === 'failure')) return { operationId, status: 'failed', findings };
      if (this.#examined.has(operationId)) return { operationId, status: 'passed', findings };
      return { operationId, status: 'skipped', reason: this.#skipped.get(operationId) ?? 'not exercised in this run', findings };
    });
  }

  #kinds = new Map<string, Finding>();

  #add(operationId: string, level: Finding['level'], message: string, exchange: Exchange | undefined, kind: string | undefined): void {
    this.#examined.add(operationId);
    const seen = kind === undefined ? undefined : this.#kinds.get(`${operationId}\0${kind}`);
    if (seen) {
      seen.occurrences++;
      return;
    }
    const finding: Finding = { level, message, ...(exchange ? { evidence: evidenceOf(exchange) } : {}), occurrences: 1 };
    if (kind !== undefined) this.#kinds.set(`${operationId}\0${kind}`, finding);
    const list = this.#findings.get(operationId) ?? [];
    list.push(finding);
    this.#findings.set(operationId, list);
  }
}

/** `GET https://…/v1/pets?limit=1`: how findings name the request they are about. */
export function requestLine(exchange: Exchange): string {
  return `${exchange.request.method} ${exchange.request.url}`;
}
