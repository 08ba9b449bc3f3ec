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
  // The build exactly as `npm run build` makes it (postbuild writes the stamp read above).
  const result = spawnSync('npm', ['run', '-s', 'build'], { stdio: 'inherit', cwd: root });
  process.exitCode = result.status ?? 1;
}
