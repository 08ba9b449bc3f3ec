#!/usr/bin/env node
// The `pets-mock` command of an install: the mock is TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
