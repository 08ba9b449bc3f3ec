import { readFileSync } from 'node:fs';

export const toolName = 'pets-conformance';
/** The package version, so User-Agent and reports say which suite ran. */
export const toolVersion: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
