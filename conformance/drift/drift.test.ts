import { describe, expect, it } from 'vitest';
import { legalChoices } from '../testing/legalChoices.ts';
import { testSpec } from '../../mock/testing.ts';
import { inProcessDeployment } from '../testing/deployment.ts';
import { drift, fault, targetOf } from '../testing/driftRuns.ts';
import { runDrift } from './runDrift.ts';

describe('a drift run between two deployments', { timeout: 90_000 }, () => {
  it('finds no difference between the mock and the mock but ids, pets and messages, and exits 0', async () => {
    const result = await drift({}, {});
    expect(result.breaks).toEqual([]);
    expect(result.choices).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.same.map((s) => s.field)).toEqual(expect.arrayContaining(['defaultStatus', 'listOrder', 'errors.invalidQuery', 'cors', 'storeOrders']));
  });

  it('sends both sides the same seeded generated traffic, bounded, and pairs every answer: the mock against itself differs in nothing the contract gives a meaning', async () => {
    const result = await drift({}, {}, { seed: 3, generatedRequests: 80 });
    const generated = result.generated!;
    expect(generated.seed).toBe(3);
    expect(generated.requests.base).toBe(generated.requests.against);
    expect(generated.requests.base).toBeGreaterThan(30);
    expect(generated.requests.base).toBeLessThanOrEqual(80);
    expect(generated.pairs).toBe(generated.requests.base);
    expect(generated.outcome).toMatchObject({ break: 0, choice: 0, unnamed: 0 });
    expect(result.choices).toEqual([]);
  });

  it('reports a fault the generated traffic meets as a break on its side, never as drift', async () => {
    const result = await drift({}, { transform: fault('gives Error a status unlike the HTTP status').transform }, { generatedRequests: 80 });
    expect(result.generated!.outcome.break).toBeGreaterThan(0);
    expect(new Set(result.breaks.map((b) => b.side))).toEqual(new Set(['B']));
    expect(result.choices.filter((c) => c.field.startsWith('errors.'))).toEqual([]);
  });

  it('names each open choice a legal variant makes differently from the mock, with its row of contract-choices.md, and no contract break', async () => {
    const result = await drift(legalChoices, {}, { probeRateLimit: true });
    expect(result.breaks).toEqual([]);
    expect(result.exitCode).toBe(0);
    const fields = result.choices.map((c) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['defaultStatus', 'listOrder', 'errors.invalidQuery', 'errors.unauthorized', 'errors.petNotFound', 'wwwAuthenticate', 'storeOrders', 'extraPetFields', 'extraErrorFields', 'retryAfter']));
    expect(result.choices.find((c) => c.field === 'errors.invalidQuery')).toMatchObject({ row: 'Error `code` values', base: { value: { status: 422, code: 'err.invalid_query_parameter' } }, against: { value: { status: 400, code: 'INVALID_QUERY_PARAMETER' } } });
    expect(result.choices.find((c) => c.field === 'defaultStatus')).toMatchObject({ row: 'Default `status` on creation', base: { value: null }, against: { value: 'available' } });
    expect(result.meaningless.map((m) => m.what)).toContain('id of a created pet');
  });

  it('exits 1 with --fail-on-drift when a choice differs', async () => {
    const result = await drift(legalChoices, {}, { failOnDrift: true });
    expect([result.verdict, result.exitCode]).toEqual(['kept', 1]);
  });

  it('reports a faulty deployment\'s break as a contract break on its side, never as drift', async () => {
    const result = await drift({}, { transform: fault('gives Error a status unlike the HTTP status').transform });
    expect(result.exitCode).toBe(1);
    expect(result.breaks.length).toBeGreaterThan(0);
    expect(new Set(result.breaks.map((b) => b.side))).toEqual(new Set(['B']));
    expect(result.choices.map((c) => c.field)).not.toContain('errors.petNotFound');
  });

  it('cannot judge (exit 2) a side that refuses its key', async () => {
    const [da, db] = await Promise.all([inProcessDeployment(), inProcessDeployment()]);
    try {
      const result = await runDrift({ base: targetOf('A', da), against: { ...targetOf('B', db), apiKey: 'not-a-key' }, spec: await testSpec() });
      expect([result.verdict, result.exitCode]).toEqual(['cannot-judge', 2]);
      expect(result.reason).toMatch(/B answered GET \/pets\?limit=1 with its key 401/);
    } finally {
      await Promise.all([da.close(), db.close()]);
    }
  });
});
