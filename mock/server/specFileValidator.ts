import { isDeepStrictEqual } from 'node:util';
import { validateSpecInWorker } from './validateSpecInWorker.ts';

/**
 * Validates the spec file in a worker, remembering the document last found valid: a reload that
 * leaves it as it was (only the fixtures changed) does not validate it again. The dereferenced
 * document is compared, not the file's text: a spec may keep parts in other files its $refs name.
 */
export function specFileValidator(specPath: string): (document: unknown) => Promise<void> {
  let validDocument: unknown;
  return async (document) => {
    if (validDocument !== undefined && isDeepStrictEqual(document, validDocument)) return;
    await validateSpecInWorker(specPath);
    validDocument = document;
  };
}
