import type { PetsMockControl } from './petsMockControl.ts';

/** What `createPetsHandlers` and `routePetsMock` give back: the control API in code, and where the mock answers. */
export interface PetsMock extends PetsMockControl {
  /** Where the API answers, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  /** Stops answering and frees the mock (Playwright routes are removed). Optional: nothing holds the process open. */
  close(): Promise<void>;
}
