import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the real `pets-conformance` command (conformance/bin.ts) from the project root, for the few
 * tests about the command itself; resolves on `close`, once its output is read (`exit` can fire
 * before, per Node's child_process docs).
 */
export async function spawnCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Only what the test gives: the developer's own key, URL or GitHub variables must not leak in.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PETS_|GITHUB_)/.test(k)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/bin.ts', ...args], { cwd: root, env: { ...inherited, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
