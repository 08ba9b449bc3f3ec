// Checks the package the way registries and bundlers read it, on the tarball `npm pack` makes:
// publint --strict, @arethetypeswrong/cli (node16 from ES modules and CommonJS, and bundler), the
// file list `npm publish --dry-run` would upload, the metadata provenance needs, and `require()` of
// every entry point from CommonJS on Node 20, 22 and 24. Run by .ci/run (`npm run check:package`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules/.bin', name);
const problems = [];
const step = (what, command, args) => {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) problems.push(`${what} (exit ${result.status ?? result.signal}):\n${(result.stdout ?? '') + (result.stderr ?? '')}`);
  else console.log(`ok: ${what}`);
  return result;
};

const dir = mkdtempSync(join(tmpdir(), 'pets-package-'));
try {
  const packed = step('npm pack', 'npm', ['pack', '--json', '--pack-destination', dir]);
  const [info] = JSON.parse(packed.stdout);
  const tarball = join(dir, info.filename);

  step('publint --strict', bin('publint'), ['--strict', tarball]);
  // openapi.yaml is data, which attw does not resolve (it reads code and types); it is shipped and
  // read by the tests of the package tier. The package is ES modules only: `require()` of it works
  // from Node 20.19 (checked below), so attw's cjs-resolves-to-esm does not apply.
  step('attw (node16 from ESM and CJS, bundler)', bin('attw'), [tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--exclude-entrypoints', 'openapi.yaml']);

  const dry = step('npm publish --dry-run', 'npm', ['publish', '--dry-run', '--json']);
  const files = Object.values(JSON.parse(dry.stdout))[0]?.files?.map((f) => f.path) ?? JSON.parse(dry.stdout).files.map((f) => f.path);
  const intended = /^(dist\/.+\.(js|cjs|d\.ts|d\.cts|schema\.json)|spec\/openapi\.yaml|conformance\/config\/conformance-config\.schema\.json|fixtures\/(pets|keys)\.json|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
  const unintended = files.filter((f) => !intended.test(f) || /(^|\/)(testing|examples)\/|\.test\.|(^|\/)bench\//.test(f));
  if (unintended.length > 0) problems.push(`npm publish would upload files not meant for users: ${unintended.join(', ')}`);
  else console.log(`ok: the ${files.length} files npm would publish are the intended ones`);

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const missing = ['name', 'version', 'description', 'license', 'repository', 'engines', 'files', 'exports', 'bin'].filter((field) => pkg[field] === undefined);
  if (!pkg.repository?.url?.startsWith('git+https://github.com/')) missing.push('repository.url (git+https://github.com/…, which provenance checks against the publishing workflow)');
  if (missing.length > 0) problems.push(`package.json lacks ${missing.join(', ')}`);
  else console.log('ok: provenance-ready metadata');

  for (const major of ['20', '22', '24']) {
    const args = major === process.versions.node.split('.')[0] ? [process.execPath, ['scripts/requireEntries.cjs']] : [process.execPath, ['scripts/withNode.mjs', major, 'node', 'scripts/requireEntries.cjs']];
    step(`require() of every entry point on Node ${major}`, ...args);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`\nThe package has ${problems.length} problem(s):\n\n${problems.join('\n\n')}`);
  process.exitCode = 1;
}
