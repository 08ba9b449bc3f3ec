import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../check.ts';
import { checkStatus, type CheckReport } from '../runReport.ts';
import { coverageOf, type CoverageContext, type CoverageRow } from './coverage.ts';
import { rules } from './rules.ts';
import { errorBody, ex, judgementsOf, listJson, petJson, rate, resetSeq, T0 } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

const context: CoverageContext = { probeRateLimit: false, readOnly: false, secondKey: false, sharedKey: false };

function report(id: string, operations: OperationResult[] = []): CheckReport {
  return { id, title: `The ${id} check`, severity: 'high', description: '', status: checkStatus(operations), operations, durationMs: 0 };
}
/** Every check that owns model rules: the passive model checks, and http-framing, which sends its own requests. */
const allModelChecks = () => [...new Set(rules.map((r) => r.checkId))].map((id) => report(id));
const row = (rows: CoverageRow[], rule: string, operation: string) => rows.find((r) => r.rule === rule && r.operation === operation);

describe('coverageOf: the model\'s rules', () => {
  it('lists every rule of a check that ran, for each operation it applies to, not reached when nothing judged it', () => {
    const rows = coverageOf([], [report('data-integrity')], context);
    const dataRules = rules.filter((r) => r.checkId === 'data-integrity');
    expect(rows).toHaveLength(dataRules.reduce((n, r) => n + r.operations.length, 0));
    expect(rows.every((r) => r.status === 'not reached' && r.exchanges === 0 && r.failures === 0)).toBe(true);
    expect(row(rows, 'data.read-back', 'getPet')).toMatchObject({ check: 'data-integrity', title: 'What is read back equals what the run knows of that id, field by field', reason: 'not met in this run: it needs a pet read twice, or read after the run created it' });
    expect(row(rows, 'data.read-back', 'getPet')!.quote).toContain('A Pet has all fields of NewPet plus `id`.');
  });

  it('leaves out the rules of checks that did not run', () => {
    const rows = coverageOf([], [report('wire-format')], context);
    expect(new Set(rows.map((r) => r.check))).toEqual(new Set(['wire-format']));
  });

  it('lists every rule once at least when every check owning rules ran', () => {
    const rows = coverageOf([], allModelChecks(), context);
    for (const rule of rules) expect(rows.some((r) => r.rule === rule.id), rule.id).toBe(true);
  });

  it('shows a rule for every request as one row `any` until an answer meets it', () => {
    const rows = coverageOf([], [report('wire-format')], context);
    expect(row(rows, 'wire.utf8', 'any')).toMatchObject({ status: 'not reached', reason: 'not met in this run: it needs any answer with a body' });
  });

  it('counts the answers a rule was applied to and its failures, operation by operation', () => {
    const judgements = judgementsOf([
      ex({ method: 'POST', requestBody: { name: 'Rex', categoryId: 1, status: 'sold' }, status: 201, headers: rate(99), body: petJson({ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }) }),
      ex({ path: '/pets/1', status: 200, headers: rate(98), body: petJson({ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }), sentAt: T0 + 1000 }),
      ex({ path: '/pets', status: 200, headers: rate(97), body: listJson([{ id: 1, name: 'rex', categoryId: 1, status: 'sold' }]), sentAt: T0 + 2000 }),
      ex({ path: '/pets?limit=5', status: 200, headers: rate(96), body: listJson([{ id: 1, name: 'rex', categoryId: 1, status: 'sold' }]), sentAt: T0 + 3000 }),
    ]);
    const rows = coverageOf(judgements, allModelChecks(), context);
    expect(row(rows, 'data.read-back', 'getPet')).toMatchObject({ status: 'judged', exchanges: 1, failures: 0 });
    expect(row(rows, 'data.read-back', 'listPets')).toMatchObject({ status: 'failed', exchanges: 2, failures: 2 });
    expect(row(rows, 'data.created-as-sent', 'createPet')).toMatchObject({ status: 'judged', exchanges: 1 });
    expect(row(rows, 'rate.cost', 'listPets')).toMatchObject({ status: 'judged', exchanges: 2, failures: 0 });
    expect(row(rows, 'wire.utf8', 'listPets')).toMatchObject({ status: 'judged', exchanges: 2 });
    expect(row(rows, 'wire.utf8', 'any')).toBeUndefined();
    expect(row(rows, 'data.created-found', 'getPet')).toMatchObject({ status: 'judged', exchanges: 1 });
  });

  it('lists a rule for every request under each operation it met, `unlisted` included', () => {
    const judgements = judgementsOf([ex({ status: 200, headers: rate(99), body: '[]' }), ex({ method: 'PUT', path: '/pets/1', status: 500, headers: rate(98), body: errorBody(500) })]);
    const rows = coverageOf(judgements, [report('status-codes'), report('wire-format')], context);
    expect(row(rows, 'status.no-5xx', 'unlisted')).toMatchObject({ status: 'failed', exchanges: 1, failures: 1 });
    expect(rows.filter((r) => r.rule === 'wire.readable').map((r) => r.operation).sort()).toEqual(['listPets', 'unlisted']);
  });
});

describe('coverageOf: why a rule was not reached', () => {
  it('names --probe-rate-limit for the rules only a 429 reaches, when the run did not probe', () => {
    const rows = coverageOf([], [report('rate-limit-accounting')], context);
    for (const rule of ['rate.429-only-when-spent', 'rate.429-says-zero', 'rate.retry-after-covers-reset', 'rate.over-limit-refused']) {
      expect(row(rows, rule, 'listPets')!.reason, rule).toBe('no 429 is met without --probe-rate-limit');
    }
  });

  it('says what a rule needs when the run probed and still did not meet it', () => {
    const rows = coverageOf([], [report('rate-limit-accounting')], { ...context, probeRateLimit: true });
    expect(row(rows, 'rate.429-says-zero', 'listPets')!.reason).toBe('not met in this run: it needs a 429 (--probe-rate-limit)');
  });

  it('names --read-only for the rules only a create reaches', () => {
    const rows = coverageOf([], [report('data-integrity')], { ...context, readOnly: true });
    for (const [rule, op] of [['data.created-as-sent', 'createPet'], ['data.new-id', 'createPet'], ['data.created-found', 'getPet']] as const) expect(row(rows, rule, op)!.reason).toBe('--read-only sends no create');
    expect(row(rows, 'data.read-back', 'listPets')!.reason).toMatch(/^not met in this run/);
  });

  it('names --api-key-plan for rate.plan-limit when no key\'s plan was given, and what it needs when one was', () => {
    expect(row(coverageOf([], [report('rate-limit-accounting')], context), 'rate.plan-limit', 'listPets')!.reason).toBe('no key\'s plan is known: give --api-key-plan (free, pro or business)');
    expect(row(coverageOf([], [report('rate-limit-accounting')], { ...context, planKnown: true }), 'rate.plan-limit', 'listPets')!.reason).toMatch(/^not met in this run: it needs an answer to a key whose plan the run is told/);
  });

  it('names --shared-key for rate.cost', () => {
    const rows = coverageOf([], [report('rate-limit-accounting')], { ...context, sharedKey: true });
    expect(row(rows, 'rate.cost', 'listPets')!.reason).toBe('relaxed by --shared-key to "never more remains than the requests allow"');
  });

  it('adds a row for the second key\'s window when the run had none, and none when it had', () => {
    expect(row(coverageOf([], [report('rate-limit-accounting')], context), 'rate.cost', 'second key')).toMatchObject({ status: 'not reached', reason: 'no second key: give --api-key-2' });
    expect(row(coverageOf([], [report('rate-limit-accounting')], { ...context, secondKey: true }), 'rate.cost', 'second key')).toBeUndefined();
  });

  it('shows a rate rule failed when its only failure was on an undocumented request with the key', () => {
    const judgements = judgementsOf([ex({ status: 200, headers: rate(98), body: '[]' }), ex({ method: 'HEAD', status: 200, headers: rate(99), sentAt: T0 + 1000 })]);
    expect(judgements.some((j) => j.rule === 'rate.no-rise' && j.outcome === 'failure')).toBe(true);
    const rows = coverageOf(judgements, [report('rate-limit-accounting')], context);
    expect(rows.filter((r) => r.rule === 'rate.no-rise').some((r) => r.status === 'failed')).toBe(true);
  });
});

describe('coverageOf: parts planned as a count, and checks by their rules', () => {
  it('lists a part planned as a count: judged on those that ran, not reached with why when none did', () => {
    const ran = { ...report('generated-traffic', [{ operationId: 'listPets', status: 'passed', findings: [] }]), parts: [{ part: 'sequences', ran: 7, planned: 12, reason: 'the key\'s budget was spent' }] };
    const none = { ...report('generated-traffic', [{ operationId: 'listPets', status: 'passed', findings: [] }]), parts: [{ part: 'sequences', ran: 0, planned: 12, reason: 'the run\'s time budget (--max-duration) ran out' }] };
    expect(row(coverageOf([], [ran], context), 'generated-traffic', 'sequences')).toMatchObject({ status: 'judged', exchanges: 7 });
    expect(row(coverageOf([], [none], context), 'generated-traffic', 'sequences')).toMatchObject({ status: 'not reached', exchanges: 0, reason: 'none of 12 ran: the run\'s time budget (--max-duration) ran out' });
  });

  it('does not list the model\'s checks case by case: their rules stand for them', () => {
    const rows = coverageOf([], [report('data-integrity', [{ operationId: 'listPets', status: 'passed', findings: [] }])], context);
    expect(rows.some((r) => r.rule === 'data-integrity')).toBe(false);
  });
});
