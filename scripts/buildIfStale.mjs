// `npm start` and friends build first only when a source changed since the last build: walking
// the sources takes milliseconds, while even an incremental `tsc` takes seconds.
import { spawnSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const sources = ['common', 'spec', 'mock', 'conformance', 'fixtures'];
const configs = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/postbuild.mjs'];

async function newest(path) {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return path.endsWith('.ts') || configs.some((c) => path.endsWith(c)) ? info.mtimeMs : 0;
  let latest = info.mtimeMs; // a deleted or renamed file changes its folder's time
  for (const name of await readdir(path)) latest = Math.max(latest, await newest(join(path, name)));
  return latest;
}

const built = (await stat(join(root, 'dist/.build-stamp')).catch(() => undefined))?.mtimeMs ?? 0;
let changed = 0;
for (const path of [...sources, ...configs]) changed = Math.max(changed, await newest(join(root, path)));
if (changed > built) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
  else {
    const post = spawnSync(process.execPath, [join(root, 'scripts/postbuild.mjs')], { stdio: 'inherit', cwd: root });
    process.exitCode = post.status ?? 1;
  }
}
