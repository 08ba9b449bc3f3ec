#!/usr/bin/env node
// placeholder until main(argv, io) lands
await import('./cli.ts');
