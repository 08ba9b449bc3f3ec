// How long the GitHub Action takes from its run step's start to the suite's first request (issue 17:
// under 5 s on a warm runner). The action's checkout as far as the bundle reads it is copied to a
// fresh folder with no node_modules, and the step's command runs there as the runner runs it. Node's
// own start (`node -e ''`), measured in turns in the same run, is the baseline the figure stands on.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectPath } from '../common/projectRoot.ts';

/** What the bundle reads from the action's checkout beside it. */
const checkoutFiles = ['action/conformance.mjs', 'spec/openapi.yaml', 'package.json', 'conformance/config/conformance-config.schema.json'];

export interface ActionSetup {
  /** Run step start to the first request the suite sends, ms, one per run. */
  toFirstRequestMs: number[];
  /** `node -e ''`, start to exit, ms, one per run. */
  nodeStartMs: number[];
}

export async function measureActionSetup(runs: number): Promise<ActionSetup> {
  const checkout = await mkdtemp(join(tmpdir(), 'bench-action-'));
  for (const file of checkoutFiles) {
    await mkdir(dirname(join(checkout, file)), { recursive: true });
    await copyFile(projectPath(file), join(checkout, file));
  }
  // Stands in for the deployment: notes when the first request arrives and refuses the key, so the run ends at once.
  let firstRequest: (() => void) | undefined;
  const server = createServer((req, res) => {
    firstRequest?.();
    firstRequest = undefined;
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"UNAUTHORIZED","message":"bench","status":401}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const result: ActionSetup = { toFirstRequestMs: [], nodeStartMs: [] };
  try {
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      await exited(spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }));
      result.nodeStartMs.push(performance.now() - started);

      const arrived = new Promise<number>((resolve) => (firstRequest = () => resolve(performance.now())));
      started = performance.now();
      const child = spawn('bash', ['-e', '-c', 'node "$GITHUB_ACTION_PATH/action/conformance.mjs"'], {
        cwd: checkout,
        stdio: 'ignore',
        env: { PATH: `${dirname(process.execPath)}:${process.env.PATH}`, GITHUB_ACTION_PATH: checkout, INPUT_BASE_URL: base, INPUT_API_KEY: 'bench', INPUT_REPORT_DIR: join(checkout, 'reports') },
      });
      result.toFirstRequestMs.push((await arrived) - started);
      await exited(child);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await rm(checkout, { recursive: true, force: true });
  }
  return result;
}

const exited = (child: ReturnType<typeof spawn>) => new Promise<void>((resolve) => child.on('close', () => resolve()));

