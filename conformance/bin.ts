#!/usr/bin/env node
// The `pets-conformance` command: compiled to dist/conformance/bin.js, run by plain Node.
import { processIo } from '../common/cliIo.ts';
import { main } from './cli.ts';

// A reader that stops early (`pets-conformance --list-checks | head`) is no error of the run.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await main(process.argv.slice(2), processIo());
