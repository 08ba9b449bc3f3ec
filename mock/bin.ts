#!/usr/bin/env node
// The `pets-mock` command (compiled to dist/mock/bin.js). Signals reach this process directly.
import { processIo } from '../common/cliIo.ts';
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2), processIo());
