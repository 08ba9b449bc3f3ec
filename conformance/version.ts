import { readFileSync } from 'node:fs';
import { projectPath } from '../common/projectRoot.ts';

export const toolName = 'pets-conformance';
/** The package version, so User-Agent and reports say which suite ran. */
export const toolVersion: string = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')).version;
