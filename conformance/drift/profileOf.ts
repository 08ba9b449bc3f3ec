// The profile a side's observed choices make (`--write-profile`), and which of them the mock cannot
// make: a value the format has no room for, or a status the contract pins that the side did not answer.
import { defaultKeylessLimits } from '../../mock/rateLimits/anonymousBucket.ts';
import { checkProfile, onRemovalDay, type DeploymentProfile, type ErrorAnswerChoice } from '../../mock/profile/profile.ts';
import { pinnedStatus, situationNames, type SituationName } from '../../mock/profile/situations.ts';
import type { KeylessWindow } from './keylessWindow.ts';
import type { Observation } from './probes.ts';

export interface CannotMake {
  field: string;
  reason: string;
}

const formats: Record<string, (value: unknown) => boolean> = {
  cors: (v) => v === 'any' || v === 'echo' || v === 'none',
  etag: (v) => v === null || v === 'sent' || v === 'conditional',
  listOrder: (v) => v === 'newest-first' || v === 'oldest-first' || v === 'unstable',
  keylessUnlisted: (v) => v === 'routed' || v === 'unauthorized',
  preflight: (v) => v === 'answered' || v === 'unlisted',
  categoryIdRange: (v) => v !== null && typeof v === 'object',
  // The contract pins the removal day: a Sunset on another is that side's break, never a choice the mock makes.
  sunset: (v) => v === null || (typeof v === 'string' && onRemovalDay(v)),
};

/**
 * A shown day's limit binds only while fewer requests are left of the day than of the minute: a
 * deployment whose per-minute limit was not shown gets the mock's, raised to the day's when lower,
 * so that the mock's day window binds too, as the deployment's did.
 */
function keylessProfile(seen: KeylessWindow): { perMinute?: number; perDay?: number } {
  if ('perMinute' in seen) return seen;
  return seen.perDay > defaultKeylessLimits.perMinute ? { perMinute: seen.perDay, perDay: seen.perDay } : seen;
}

/** The profile of what a side showed, and the choices the mock could not make from it. */
export function profileOf(choices: ReadonlyMap<string, Observation>, describes: string): { profile: DeploymentProfile; cannotMake: CannotMake[] } {
  const profile: Record<string, unknown> = { profileVersion: 1, describes };
  const cannotMake: CannotMake[] = [];
  const errors: Partial<Record<SituationName, ErrorAnswerChoice>> = {};
  for (const [field, observation] of choices) {
    const value = observation.value;
    if (field.startsWith('errors.')) {
      const name = field.slice('errors.'.length) as SituationName;
      if (!situationNames.includes(name)) continue;
      const { status, code } = value as { status: number; code?: string };
      const pinned = pinnedStatus(name);
      const choice: ErrorAnswerChoice = { ...(pinned === undefined && status >= 400 && status < 500 ? { status } : {}), ...(code !== undefined ? { code } : {}) };
      if (pinned === undefined && (status < 400 || status >= 500)) cannotMake.push({ field, reason: `the mock answers ${name} with a 4xx; it cannot answer ${status}` });
      if (pinned !== undefined && status !== pinned) cannotMake.push({ field, reason: `the mock answers ${name} with the ${pinned} the contract names; it cannot answer ${status}` });
      if (code === undefined) cannotMake.push({ field, reason: 'the mock always answers an Error with a code; this side sent none' });
      if (Object.keys(choice).length > 0) errors[name] = choice;
      continue;
    }
    if (formats[field] && !formats[field](value)) {
      cannotMake.push({ field, reason: `the mock's choices and the profile format have no value for this: ${observation.shown}` });
      continue;
    }
    profile[field] = field === 'keylessLimit' ? keylessProfile(value as KeylessWindow) : value;
  }
  if (Object.keys(errors).length > 0) profile.errors = errors;
  return { profile: checkProfile(profile, 'the observed profile'), cannotMake };
}
