import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The project's root folder, whether this code runs from its TypeScript source (spec/) or from
 * the build (dist/spec/): data files (the spec, the fixtures, package.json) are never copied.
 */
export const projectRoot = basename(dirname(here)) === 'dist' ? dirname(dirname(here)) : dirname(here);

export const projectPath = (...parts: string[]) => join(projectRoot, ...parts);
