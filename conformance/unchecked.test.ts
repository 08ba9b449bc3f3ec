import { describe, expect, it } from 'vitest';
import { testSpec } from '../mock/testing.ts';
import { Outcomes, type CheckContext, type OperationResult } from './check.ts';
import type { ApiRequest, Exchange } from './http/exchange.ts';
import { exchange } from './testing/exchanges.ts';
import { runModel } from './model/runModel.ts';
import { modelOptions } from './model/testing/modelExchanges.ts';
import { checkStatus, type CheckReport, type RunReport } from './runReport.ts';
import { SpecValidators } from './specValidators.ts';
import { generatedTraffic } from './traffic/generatedTraffic.ts';
import { partialRunLine, uncheckedOf, uncheckedReason } from './unchecked.ts';

const skipped = (reason: string): OperationResult => ({ operationId: 'createPet', status: 'skipped', reason, findings: [] });
const passed: OperationResult = { operationId: 'listPets', status: 'passed', findings: [] };
const report = (id: string, operations: OperationResult[], extra: Partial<CheckReport> = {}): CheckReport => ({ id, title: id, severity: id === 'create-pet' ? 'critical' : 'high', description: '', status: checkStatus(operations), operations, durationMs: 0, ...extra });
const outOfTime = 'the run\'s time budget (--max-duration 300 s) was spent before it started';

describe('uncheckedOf: what the selected checks did not check', () => {
  it('names a check skipped whole after it met one of the run\'s budgets, with its severity and why', () => {
    expect(uncheckedOf([report('create-pet', [skipped(outOfTime)])], new Map([['create-pet', outOfTime]]))).toEqual([`create-pet (critical) was skipped: ${outOfTime}`]);
  });

  it('leaves out a check the options skipped (--read-only), one that judged something before the budget ran out, and one that met no budget', () => {
    const readOnly = report('pet-lifecycle', [skipped('it writes, and --read-only is on')]);
    const partly = report('create-pet', [passed, skipped(outOfTime)]);
    expect(uncheckedOf([readOnly, partly], new Map([['create-pet', outOfTime]]))).toEqual([]);
  });

  it('names a planned part that ran none of its count, and not one that ran some', () => {
    const none = report('generated-traffic', [passed], { parts: [{ part: 'sequences', ran: 0, planned: 12, reason: 'the run\'s time budget (--max-duration) ran out' }] });
    const some = report('generated-traffic', [passed], { parts: [{ part: 'sequences', ran: 7, planned: 12, reason: 'the key\'s budget for generated requests (30) was spent' }] });
    const asked = report('generated-traffic', [passed], { parts: [{ part: 'sequences', ran: 0, planned: 0 }] });
    expect(uncheckedOf([none], new Map())).toEqual(['generated-traffic ran none of its 12 sequences: the run\'s time budget (--max-duration) ran out']);
    expect(uncheckedOf([some, asked], new Map())).toEqual([]);
  });

  it('gives a reason that says what to change, or to accept a partial run with --allow-partial', () => {
    expect(uncheckedReason(['a', 'b'])).toBe('Not everything the run set out to check was checked, so it is no pass: a; b. Give the run what it lacked (a longer --max-duration or --max-wait, a key with a larger quota, or a run once the key\'s window has reset), or accept a partial run with --allow-partial.');
  });

  it('gives the reports a line for a partial run that still has a verdict, naming --allow-partial when it accepted it', () => {
    const base = { unchecked: ['x'], options: { readOnly: false, probeRateLimit: false, seed: 1, depth: 'quick', checks: [] } } satisfies Partial<RunReport>;
    expect(partialRunLine({ ...base, verdict: 'passed', options: { ...base.options, allowPartial: true } })).toBe('Partial run, accepted by --allow-partial: not checked: x.');
    expect(partialRunLine({ ...base, verdict: 'failed' })).toBe('Partial run: not checked: x.');
    expect(partialRunLine({ ...base, verdict: 'cannot-run' })).toBeUndefined();
    expect(partialRunLine({ ...base, unchecked: [], verdict: 'passed' })).toBeUndefined();
  });
});

describe('the generated traffic', () => {
  /** A context whose every request is answered `status` with an empty list, and whose key has `remaining` of 300 left. */
  async function context(timeLeftMs: number, answered: boolean, remaining = 250) {
    const spec = await testSpec();
    const exchanges: Exchange[] = [];
    const ctx = {
      spec,
      options: { readOnly: true, depth: 'quick', probeRateLimit: false, probeMaxRequests: 10, seed: 1 },
      validators: new SpecValidators(spec),
      apiKey: 'k',
      exchanges,
      send: async (request: ApiRequest) => {
        if (!answered) return undefined;
        const answer = exchange({ status: 200, method: request.method, path: request.path, operationId: request.operationId, intent: request.intent, body: '[]' });
        exchanges.push(answer);
        return answer;
      },
      knownPets: () => [{ id: 1, idText: '1', name: 'Rex', categoryId: 1, status: 'available' }],
      petPath: () => '/pets/1',
      random: () => 0.5,
      runMark: 'testrun1',
      keyQuota: () => ({ limit: 300, remaining }),
      waitFor: async () => false,
      anonymousQuota: () => ({}),
      keylessSent: () => 0,
      model: () => runModel(exchanges, modelOptions()),
      timeLeftMs: () => timeLeftMs,
      reproduce: () => {},
      otherSourceAddress: async () => undefined,
    } satisfies CheckContext;
    return ctx;
  }

  it('runs its first sequence though the key\'s window runs low, and stops there rather than wait for the next', async () => {
    const outcomes = new Outcomes(generatedTraffic.operations);
    await generatedTraffic.send!(await context(60_000, true, 10), outcomes);
    expect(outcomes.parts()).toEqual([{ part: 'sequences', ran: 1, planned: 12, reason: 'the key\'s window ran low, and more would wait for the next window' }]);
  });

  it('says it ran none of its sequences, and why, when the run\'s time budget is spent before them', async () => {
    const spec = await testSpec();
    const ctx = {
      spec,
      options: { readOnly: true, depth: 'quick', probeRateLimit: false, probeMaxRequests: 10, seed: 1 },
      validators: new SpecValidators(spec),
      apiKey: 'k',
      exchanges: [],
      // Nothing is answered: the time budget is spent.
      send: async () => undefined,
      knownPets: () => [{ id: 1, idText: '1', name: 'Rex', categoryId: 1, status: 'available' }],
      petPath: () => '/pets/1',
      random: () => 0.5,
      runMark: 'testrun1',
      keyQuota: () => ({ limit: 60, remaining: 50 }),
      waitFor: async () => false,
      anonymousQuota: () => ({}),
      keylessSent: () => 0,
      model: () => runModel([], modelOptions()),
      timeLeftMs: () => 4_000,
      reproduce: () => {},
      otherSourceAddress: async () => undefined,
    } satisfies CheckContext;
    const outcomes = new Outcomes(generatedTraffic.operations);
    await generatedTraffic.send!(ctx, outcomes);
    expect(outcomes.parts()).toEqual([{ part: 'sequences', ran: 0, planned: 12, reason: 'the run\'s time budget (--max-duration) ran out' }]);
  });
});
