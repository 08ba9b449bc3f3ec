// The drift run against the shared corpus (`npm run test:corpus`): deployments this project never
// wrote, each keeping the contract while making open choices its own way (the clean servers and
// every LEGAL variant), or breaking it once (every FAULT). For each that keeps it, a drift run
// against the mock finds no break on either side, and the mock given the profile that run wrote
// shows no open-choice difference left but those a profile cannot hold (an answer that varies
// within one situation other than a refused create body, whose code per reason a profile holds):
// never a `categoryId` past 2^53 - 1 (`int64Range`), which the mock keeps exactly as the
// servers do, or refuses as a profile's categoryIdRange bound says. For each fault, how often the
// run reports it as a break is counted (printed at the end), and no fault is ever filed as an open
// choice on a point the contract pins.
import { afterAll, describe, expect, test } from 'vitest';
import { loadSpec } from '../../spec/loadSpec.ts';
import { httpTransport } from '../http/transport.ts';
import { bodyReasons, pinnedStatus, situationNames, type SituationName } from '../../mock/profile/situations.ts';
import { corpusCases, startCorpusCase, type CorpusCase } from '../testing/corpusCases.ts';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import type { ChoiceDifference, DriftResult } from './classifyDrift.ts';
import type { CannotMake } from './profileOf.ts';
import { openMockTarget } from './mockTarget.ts';
import { runDrift } from './runDrift.ts';

async function driftAgainstMock(c: CorpusCase, profile?: DeploymentProfile): Promise<DriftResult> {
  const spec = await loadSpec();
  const server = await startCorpusCase(c);
  const transport = httpTransport();
  const mock = await openMockTarget({ spec, ...(profile ? { profile } : {}) });
  try {
    return await runDrift({ base: { label: 'A', baseUrl: server.baseUrl, apiKey: 'demo-pro', transport, now: Date.now }, against: mock.target, againstIsMock: true, spec, probeRateLimit: true });
  } finally {
    await transport.close?.();
    await mock.close();
    await server.close();
  }
}

/** Choices a profile holds that the corpus servers make otherwise than the mock: after calibration none may stay. */
const madeByProfile = ['keylessUnlisted', 'preflight', 'categoryIdRange', 'sunset', 'location', 'etag'];

/** The Errors of a refused create body: invalidBody and each reason a profile gives its own code. */
const bodyRefusals = ['errors.invalidBody', ...bodyReasons.map((reason) => `errors.${reason}`)];

/**
 * What calibration cannot remove, as a profile holds one answer per situation: a situation answered
 * in more than one way, but never a refused create body (a profile holds a code per reason it is
 * refused: a name too long, a categoryId out of range, a field NewPet lacks). A list order that
 * changes from read to read is the profile's `unstable`; ETag and 304 to a matching If-None-Match
 * its `etag`.
 */
const profileCannotHold = (x: CannotMake): boolean => /answers this situation in more than one way/.test(x.reason) && !bodyRefusals.includes(x.field);

const statusOf = (shown: string) => Number(/^(\d{3})\b/.exec(shown)?.[1]);
/**
 * A choice filed on a point the contract pins: the status of a situation the contract gives one
 * (400 for a body it refuses, 401, 404, 429), or an Error without the fields Error requires.
 */
function onPinnedPoint(c: ChoiceDifference): boolean {
  const situation = c.field.startsWith('errors.') ? (c.field.slice('errors.'.length) as SituationName) : undefined;
  if (situation && situationNames.includes(situation) && pinnedStatus(situation) !== undefined && statusOf(c.base.shown) !== statusOf(c.against.shown)) return true;
  return /without an Error code/.test(`${c.base.shown} ${c.against.shown}`);
}

const label = (c: CorpusCase) => `${c.file} ${c.kind === 'CLEAN' ? 'clean' : `${c.kind} ${c.name}`}`;
const figures: string[] = [];
const faultFigures: { name: string; broke: boolean; drift: number }[] = [];
afterAll(() => {
  const broke = faultFigures.filter((f) => f.broke).length;
  console.log(['Drift against the corpus:', ...figures, `Faults reported as a break: ${broke} of ${faultFigures.length}`, `Not reported as a break: ${faultFigures.filter((f) => !f.broke).map((f) => f.name).join(', ')}`].join('\n'));
});

describe.concurrent('drift against the shared corpus', () => {
  for (const c of corpusCases()) {
    if (c.kind === 'FAULT') {
      test(`${label(c)}: a fault is never an open choice on a point the contract pins`, async () => {
        const result = await driftAgainstMock(c);
        expect(result.exitCode).not.toBe(2);
        faultFigures.push({ name: `${c.file}:${c.name}`, broke: result.breaks.some((b) => b.side === 'A'), drift: result.choices.length });
        expect(result.choices.filter(onPinnedPoint).map((x) => `${x.field}: ${x.base.shown} / ${x.against.shown}`)).toEqual([]);
      });
      continue;
    }
    test(`${label(c)}: no break, and the mock given its profile leaves no open-choice difference but what a profile cannot hold`, async () => {
      const observed = await driftAgainstMock(c);
      expect(observed.breaks.map((b) => `${b.side}: ${b.rule}: ${b.message}`)).toEqual([]);
      expect(observed.exitCode).toBe(0);
      const calibrated = await driftAgainstMock(c, observed.profile);
      expect(calibrated.breaks.map((b) => `${b.side}: ${b.rule}: ${b.message}`)).toEqual([]);
      const left = calibrated.choices.filter((x) => x.mockCannotMake === undefined);
      const cannot = calibrated.choices.filter((x) => x.mockCannotMake !== undefined).map((x) => x.field);
      figures.push(`${label(c)}: ${observed.choices.length} open choices differ from the mock's (${observed.generated?.pairs ?? 0} generated pairs); after calibration ${calibrated.choices.length}${cannot.length > 0 ? `, the mock cannot make: ${[...new Set(cannot)].join(', ')}` : ''}`);
      expect(left.map((x) => `${x.field}: ${x.base.shown} / ${x.against.shown}`)).toEqual([]);
      // What a profile holds is made: the key asked before routing, OPTIONS unserved, the categoryId range, Sunset, Location and ETag never stay.
      expect(cannot.filter((field) => madeByProfile.includes(field))).toEqual([]);
      // Nor anything else but what no profile can hold; never the int64 range.
      expect(calibrated.choices.filter((x) => x.field === 'int64Range').map((x) => `${x.base.shown} / ${x.against.shown}`)).toEqual([]);
      expect(calibrated.cannotMake.filter((x) => !profileCannotHold(x)).map((x) => `${x.field}: ${x.reason}`)).toEqual([]);
    });
  }
});
