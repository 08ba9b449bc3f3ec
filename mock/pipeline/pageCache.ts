import type { PetStatus } from '../../spec/types.ts';
import type { PetStepResult } from '../state/stateParts.ts';

/**
 * Pages of pets kept as JSON text until the store changes (on any replica): most reads repeat the
 * last ones, and the text of a page costs more to build than the rest of the request. The store
 * holds only the contract's fields, so the text is exactly what the schema allows.
 */
export class PageCache {
  readonly #pages = new Map<string, string>();
  #version: number | string = -1;

  /** The version of the page this cache holds, for the store to send none while it is current. */
  heldVersion(limit: number, status: PetStatus | undefined): number | string | undefined {
    return this.#pages.has(keyOf(limit, status)) ? this.#version : undefined;
  }

  /**
   * The page's text: as the store sent it (kept for the next reads), or the copy kept, still
   * current; undefined when the store sent none and the copy went with a newer version meanwhile.
   */
  take({ version, json }: PetStepResult & { kind: 'page' }, limit: number, status: PetStatus | undefined): string | undefined {
    if (this.#version !== version) {
      this.#pages.clear();
      this.#version = version;
    }
    const key = keyOf(limit, status);
    if (json === undefined) return this.#pages.get(key);
    this.#pages.set(key, json);
    return json;
  }
}

const keyOf = (limit: number, status: PetStatus | undefined) => `${limit} ${status ?? ''}`;
