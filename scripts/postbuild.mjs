// After `tsc -p tsconfig.build.json`: make dist/ consumable by any TypeScript setup.
// - Declarations keep the sources' `.ts` import specifiers (tsc rewrites them only in JavaScript);
//   point them at the emitted `.js`, which every moduleResolution understands.
// - `pet-adoption-toolkit/types` also gets a CommonJS flavour (types.d.cts, types.cjs), so a
//   CommonJS project under `moduleResolution: node16` can import the contract's types too.
// - What a deleted or moved source left in dist/ is removed: tsc's incremental build never deletes,
//   and `npm pack` would ship the stale module.
// - dist/.build-stamp records when the build finished, for scripts/buildIfStale.mjs.
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const root = new URL('..', import.meta.url).pathname;
/** The source a compiled file came from: dist/a/b.js and dist/a/b.d.ts from a/b.ts. */
const sourceOf = (file) => join(root, file.slice(dist.length).replace(/(\.d)?\.ts$|\.js$/, '.ts'));
for await (const file of files(dist)) {
  if (!/(\.js|\.d\.ts)$/.test(file) || file.endsWith('spec/types.cjs')) continue;
  // Gone, or no longer built (tsconfig.build.json leaves out tests, testing helpers and examples).
  const excluded = /(^|\/)(testing|examples)(\/|\.(d\.ts|js)$)|\.test\.(d\.ts|js)$/.test(file.slice(dist.length));
  if (excluded || !existsSync(sourceOf(file))) await rm(file);
}

const relativeTs = /((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g;
for await (const file of files(dist)) {
  if (!file.endsWith('.d.ts')) continue;
  const text = await readFile(file, 'utf8');
  const fixed = text.replace(relativeTs, '$1.js$2');
  if (fixed !== text) await writeFile(file, fixed);
}

// One self-contained CommonJS declaration: the generated schema types and the aliases of types.ts.
const generated = await readFile(join(dist, 'spec/openapi.gen.d.ts'), 'utf8');
const types = await readFile(join(dist, 'spec/types.d.ts'), 'utf8');
const aliases = types.replace(/^import .*$/m, '').replace(/^export type \{ components, paths, operations \};$/m, '');
await writeFile(join(dist, 'spec/types.d.cts'), `${generated}\n${aliases}`);
const { petStatuses } = await import(join(dist, 'spec/types.js'));
await writeFile(join(dist, 'spec/types.cjs'), `'use strict';\n// CommonJS flavour of types.js.\nexports.petStatuses = ${JSON.stringify(petStatuses)};\n`);

await writeFile(join(dist, '.build-stamp'), new Date().toISOString());
