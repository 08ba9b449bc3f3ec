// Runs a command on another major of Node than the one installed: the npm registry's `node` package
// (`npx -p node@24`) provides it, so a machine with Node 20 alone can test on 22 and 24.
// Usage: node scripts/withNode.mjs <major> [command args…]   e.g. node scripts/withNode.mjs 24 npm run test:vitest
// With no command, only fetches that Node (CI does this first, so a failed download ends the run at once).
// Fails loudly: if npx cannot fetch that Node, or the `node` it finds is not of that major (npx falls
// back to the machine's own Node when the package installed no binary), nothing runs and it exits 1.
// The command runs with that Node first on PATH, so npm, the `#!/usr/bin/env node` bins npm runs
// (vitest, tsc) and every process.execPath they spawn are that Node.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

const [major, ...command] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? '')) {
  console.error('usage: node scripts/withNode.mjs <major> [command args…]');
  process.exit(2);
}

const fail = (why) => {
  console.error(`withNode: could not get Node ${major} from the npm registry (npx -y -p node@${major}): ${why}`);
  process.exit(1);
};

// The major pinned; the newest release of it. `node -p` prints the binary itself, not npx's link to it.
const probe = spawnSync('npx', ['-y', '-p', `node@${major}`, '--', 'node', '-p', 'process.version + " " + process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (probe.error) fail(probe.error.message);
if (probe.status !== 0) fail(`npx exited with ${probe.status ?? probe.signal}`);
const [version, execPath] = probe.stdout.trim().split('\n').at(-1).split(' ');
if (!version?.startsWith(`v${major}.`) || !execPath) fail(`it ran ${version ?? 'nothing'} (${execPath ?? '?'}), not Node ${major}`);
console.error(`withNode: Node ${version} (${execPath})`);
if (command.length === 0) process.exit(0);

const env = { ...process.env, PATH: `${dirname(execPath)}:${process.env.PATH}` };
// What an outer `npm run` set for its own Node: the inner npm sets its own, and nothing must see Node 20's.
delete env.npm_node_execpath;
delete env.NODE;
const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit', env });
if (result.error) {
  console.error(`withNode: ${command[0]}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
