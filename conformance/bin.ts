#!/usr/bin/env node
// The `pets-conformance` command: compiled to dist/conformance/bin.js, run by plain Node.
import { processIo } from '../common/cliIo.ts';
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2), processIo());
