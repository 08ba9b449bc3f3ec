#!/usr/bin/env node
// The `pets-conformance` command of an install: the suite is TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
