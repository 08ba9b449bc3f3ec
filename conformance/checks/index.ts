import type { Check } from '../check.ts';
import { auth } from './auth.ts';
import { createPet } from './createPet.ts';
import { getPet } from './getPet.ts';
import { httpFraming } from './httpFraming.ts';
import { pagination } from './pagination.ts';
import { petLifecycle } from './petLifecycle.ts';
import { rateLimitProbe } from './rateLimitProbe.ts';
import { statusFilter } from './statusFilter.ts';
import { passiveChecks } from './passiveChecks.ts';
import { generatedTraffic } from '../traffic/generatedTraffic.ts';

/** Every check, in the order they run within their phase (active, probe, passive). */
export const checks: readonly Check[] = [
  auth,
  statusFilter,
  pagination,
  getPet,
  createPet,
  petLifecycle,
  generatedTraffic,
  httpFraming,
  rateLimitProbe,
  ...passiveChecks,
];

export const checkIds = checks.map((c) => c.id);
