import type { Check } from '../check.ts';
import { auth } from './auth.ts';
import { contentType } from './contentType.ts';
import { createPet } from './createPet.ts';
import { getPet } from './getPet.ts';
import { httpFraming } from './httpFraming.ts';
import { pagination } from './pagination.ts';
import { petLifecycle } from './petLifecycle.ts';
import { rateLimitHeaders } from './rateLimitHeaders.ts';
import { rateLimitProbe } from './rateLimitProbe.ts';
import { responseSchemaCheck } from './responseSchema.ts';
import { statusCodes } from './statusCodes.ts';
import { statusFilter } from './statusFilter.ts';
import { dataIntegrity, deprecation, equivalentRequests, httpSemantics, keylessAndUnlisted, rateLimitAccounting, wireFormat } from '../model/modelChecks.ts';
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
  statusCodes,
  contentType,
  responseSchemaCheck,
  rateLimitHeaders,
  dataIntegrity,
  rateLimitAccounting,
  wireFormat,
  deprecation,
  keylessAndUnlisted,
  equivalentRequests,
  httpSemantics,
];

export const checkIds = checks.map((c) => c.id);
