import { describe, expect, it } from 'vitest';
import { testSpec } from '../mock/testing.ts';
import { judgeCheck, Outcomes } from './check.ts';
import { statusFilter } from './checks/statusFilter.ts';
import type { Exchange } from './http/exchange.ts';
import { runModel } from './model/runModel.ts';
import { SpecValidators } from './specValidators.ts';
import { exchange, judge } from './testing/exchanges.ts';

describe('Outcomes', () => {
  it('calls a case answered 429 inconclusive: the operation is skipped with the reason, not passed', () => {
    const outcomes = new Outcomes(['listPets']);
    const throttled = exchange({ status: 429, case: 'list-pets/query/limit/max', headers: { 'retry-after': '5' } });
    expect(outcomes.expect(true, throttled, 'never shown')).toBe(false);
    expect(outcomes.results()[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^could not judge: list-pets\/query\/limit\/max: .*429/) });
  });

  it('calls a case whose own key was refused inconclusive, and a refusal of a bad key judgeable', () => {
    const outcomes = new Outcomes(['listPets']);
    outcomes.expect(false, exchange({ status: 401 }), 'never shown');
    expect(outcomes.results()[0]!.status).toBe('skipped');
    outcomes.expect(false, exchange({ status: 401, intent: 'unauthenticated', bucket: 'anonymous' }), 'a failure');
    expect(outcomes.results()[0]).toMatchObject({ status: 'failed', findings: [{ message: 'a failure' }] });
  });

  it('passes an operation once a judgeable answer held, and keeps the inconclusive cases on record', () => {
    const outcomes = new Outcomes(['listPets']);
    outcomes.inconclusive('listPets', 'no answer', 'list-pets/query/limit/float');
    outcomes.expect(true, exchange({ status: 200, body: '[]' }), 'never shown');
    expect(outcomes.results()[0]).toMatchObject({ status: 'passed', inconclusive: [{ case: 'list-pets/query/limit/float', reason: 'no answer' }] });
  });

  it('does not pass an operation on a warning alone', () => {
    const outcomes = new Outcomes(['listStoreOrders']);
    outcomes.warn('listStoreOrders', 'not served', exchange({ status: 404, operationId: 'listStoreOrders' }));
    expect(outcomes.results()[0]!.status).toBe('skipped');
  });

  it('names the case a finding is about', () => {
    const outcomes = new Outcomes(['createPet']);
    outcomes.expect(false, exchange({ status: 201, operationId: 'createPet', case: 'create-pet/body/categoryId/float' }), 'POST /pets accepted categoryId 1.5 (201)');
    expect(outcomes.results()[0]!.findings[0]).toMatchObject({ case: 'create-pet/body/categoryId/float', level: 'failure' });
  });
});

describe('judgeCheck: the model\'s rules a check reports', () => {
  const keyed = (e: Exchange): Exchange => ({ ...e, request: { ...e.request, headers: { authorization: 'Bearer $PETS_API_KEY' } } });
  const soldCase = (body: string) => ({ ...keyed(exchange({ path: '/pets?status=sold&limit=100', status: 200, body, case: 'list-pets/query/status/sold' })), expect: { rule: 'filter.served', answer: 'accept' as const, what: 'status=sold', because: 'sold is a PetStatus' } });
  const otherStatus = '[{"id":1,"name":"A","categoryId":1,"status":"available"}]';

  it('fails the check\'s own case by the model\'s judgement of data.status-filter, quoting the rule', async () => {
    const [finding, ...more] = (await judge(statusFilter, [soldCase(otherStatus)])).listPets!.findings;
    expect(more).toEqual([]);
    expect(finding).toMatchObject({ level: 'failure', case: 'list-pets/query/status/sold', rule: { id: 'data.status-filter' } });
  });

  it('reports none of the model\'s judgements on exchanges another check sent', async () => {
    const own = soldCase('[]');
    const others = keyed(exchange({ path: '/pets?status=sold', status: 200, body: otherStatus }));
    const validators = new SpecValidators(await testSpec());
    const outcomes = new Outcomes(statusFilter.operations);
    judgeCheck(statusFilter, { validators, knownPets: [], probeMaxRequests: 10, exchanges: [own], model: runModel([own, others], { sharedKey: false, validators }), connections: [], unanswered: [] }, outcomes);
    expect(outcomes.results().flatMap((r) => r.findings)).toEqual([]);
  });
});
