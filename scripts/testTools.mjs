// Sets up what the tests need beyond npm: Debian's Chromium for the browser tests and Debian's
// redis-server for the Redis tests (Playwright cannot download a browser on these machines).
// Usage: node scripts/testTools.mjs all|chromium|redis. Installs with apt-get when it can (Debian,
// as root or with password-less sudo); otherwise fails at once with the one thing to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.argv[2] ?? 'all';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const redisServerPath = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

const tools = [
  { name: 'chromium', needed: wanted === 'all' || wanted === 'chromium', present: () => existsSync(chromiumPath), package: 'chromium', alternative: 'or set CHROMIUM_PATH=/path/to/chrome' },
  // Where the Redis tests and the bench look for it (mock/redis/testing/redisServer.ts).
  { name: 'redis', needed: wanted === 'all' || wanted === 'redis', present: () => existsSync(redisServerPath), package: 'redis-server', alternative: 'or set REDIS_SERVER_PATH=/path/to/redis-server' },
];
const missing = tools.filter((t) => t.needed && !t.present());

if (missing.length > 0) {
  const packages = missing.map((t) => t.package);
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (onPath('apt-get') && (root || sudo)) {
    const run = (args) => execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    console.error(`test tools: installing ${packages.join(', ')} with apt-get (once per machine)…`);
    try {
      run(['apt-get', 'update', '-qq']);
      run(['apt-get', 'install', '-y', '-qq', ...packages]);
    } catch (error) {
      console.error(`test tools: apt-get failed (${error.message}).`);
    }
  }
  const still = missing.filter((t) => !t.present());
  if (still.length > 0) {
    for (const tool of still) console.error(`test tools: ${tool.name} is missing. Run: apt-get install ${tool.package} (as root), ${tool.alternative}.`);
    process.exitCode = 1;
  }
}
