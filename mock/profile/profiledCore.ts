// The core of a mock given a deployment profile: the same core, its answers made to the profile's
// choices (profiledAnswers.ts), for every host (each answers through `answer` or `handle`).
import { answerFetch } from '../core/answerFetch.ts';
import type { MockCore } from '../core/createMockCore.ts';
import type { StateParts } from '../state/stateParts.ts';
import type { DeploymentProfile } from './profile.ts';
import { profileMockOptions, profiledAnswers, type ProfileCoreChoices } from './profiledAnswers.ts';

/** The core as it is without a profile; with one, answering as the profile chooses. */
export function profiledCore(profile: DeploymentProfile | undefined, state: Pick<StateParts, 'clock'>, core: MockCore): MockCore {
  if (!profile) return core;
  const answer = profiledAnswers(profile, core.answer, () => state.clock.now());
  return {
    ...core,
    answer,
    // A profile's choices may wait (a body read to screen a create): its answers are promises.
    answerNow: answer,
    handle: (request, init) => answerFetch(answer, request, { client: init?.client, arrivedAt: core.arrival() }),
  };
}

/**
 * The options with the profile's choices the core and the state make themselves (default status,
 * strictness, ban rule, keyless limits, body limit, keyless unlisted requests, preflight) put over them.
 */
export function profiledOptions<T extends { defaultStatus?: unknown; strict?: boolean; ban?: object; keylessLimits?: object; bodyLimit?: number }>(options: T, profile: DeploymentProfile | undefined): T & ProfileCoreChoices {
  if (!profile) return options;
  const chosen = profileMockOptions(profile);
  return {
    ...options,
    ...chosen,
    ...(chosen.ban ? { ban: { ...options.ban, ...chosen.ban } } : {}),
    ...(chosen.keylessLimits ? { keylessLimits: { ...options.keylessLimits, ...chosen.keylessLimits } } : {}),
  };
}
