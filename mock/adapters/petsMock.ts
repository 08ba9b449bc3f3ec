import type { PetsMockControl } from './petsMockControl.ts';

/** What `createPetsHandlers` and `routePetsMock` give back: the control API in code, and where the mock answers. */
export interface PetsMock extends PetsMockControl {
  /** Where the API answers, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  /**
   * Frees the mock. Playwright routes are removed; MSW handlers stay with the server and answer 500
   * saying the mock was closed, so remove them too. Optional: an open mock holds no port, and no
   * handle that keeps the process alive (Prism's worker thread holds it only while it answers).
   */
  close(): Promise<void>;
}
