// The faults the suite must catch (testing/faults.ts), each run in conformance/faults.partN.test.ts.
import { describe, expect, it } from 'vitest';
import { checkIds } from './checks/index.ts';
import { faults } from './testing/faults.ts';
import { FAULT_PARTS, faultsOfPart } from './testing/faultVerdicts.ts';

describe('the fault deployments', () => {
  it('cover every check, with at least 40 faults', () => {
    expect(faults.length).toBeGreaterThanOrEqual(40);
    expect(new Set(faults.map((f) => f.caughtBy))).toEqual(new Set(checkIds));
  });

  it('are each run in exactly one part', () => {
    const parts = Array.from({ length: FAULT_PARTS }, (_, i) => faultsOfPart(i + 1));
    expect(parts.flat()).toHaveLength(faults.length);
    expect(new Set(parts.flat())).toEqual(new Set(faults));
  });
});
