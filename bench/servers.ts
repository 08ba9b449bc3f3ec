import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../common/testing/freePort.ts';
import { projectPath } from '../common/projectRoot.ts';

export interface RunningServer {
  name: string;
  /** The API's base, e.g. `http://127.0.0.1:4010/v1` (Prism serves the paths at its root). */
  base: string;
  pid: number;
  /** Milliseconds from spawning the process to its first answered request. */
  startupMs: number;
  /** Resident memory now and at its peak (VmRSS, VmHWM), in MiB. */
  memory(): Promise<{ rssMb: number; peakMb: number }>;
  /** CPU time the process has used so far, every thread, in ms (NaN where /proc cannot tell). */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}


async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** CPU time (user and system, every thread) of a process, from /proc/<pid>/stat, in ms: its ticks are 1/100 s (USER_HZ). */
async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Spawns a server and waits for its first answer (any status), polling every 5 ms. */
async function start(name: string, args: string[], base: string, probe: string, timeoutMs = 120_000): Promise<RunningServer> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd: projectPath(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${name} exited before answering: ${stderr}`);
    if (performance.now() - started > timeoutMs) throw new Error(`${name} did not answer within ${timeoutMs} ms`);
    try {
      await fetch(probe, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const startupMs = performance.now() - started;
  return {
    name,
    base,
    pid: child.pid!,
    startupMs,
    memory: () => memoryOf(child.pid!),
    cpuMs: () => cpuMsOf(child.pid!),
    stop: async () => {
      if (exited) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** The ceiling: plain node:http with the same answer as the mock's GET /v1/pets?limit=20. */
export async function startCeiling(): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/v1`;
  return start('node:http ceiling', ['bench/ceilingServer.mjs', String(port)], base, `${base}/pets`);
}

/** What a server answered one request: replayed byte for byte by startReplay. */
export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Plain node:http answering each request with the bytes the mock gave it (bench/replayServer.mjs):
 * `answers` by `METHOD /v1/path?query`. Its Date is Node's own.
 */
export async function startReplay(answers: Record<string, RecordedAnswer>): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/v1`;
  const dir = await mkdtemp(join(tmpdir(), 'pets-bench-'));
  const file = join(dir, 'answers.json');
  await writeFile(file, JSON.stringify(answers));
  const server = await start('node:http replaying the mock', ['bench/replayServer.mjs', String(port), file], base, `${base}/pets`);
  return { ...server, stop: async () => { await server.stop(); await rm(dir, { recursive: true, force: true }); } };
}

/**
 * The mock as `npm start` runs it (built JavaScript), with the given extra options; from the
 * TypeScript source through tsx with `fromSource` (the harness's own smoke test, without a build).
 */
export async function startMock(extra: string[] = [], name = 'mock', fromSource = false): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/v1`;
  const entry = fromSource ? ['--import', 'tsx', 'mock/bin.ts'] : ['dist/mock/bin.js'];
  return start(name, [...entry, '--port', String(port), ...extra], base, `${base}/pets`);
}

/** Prism 5.12's mock of the same spec/openapi.yaml, at its default log level. */
export async function startPrism(): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return start('prism 5.12 (static)', ['node_modules/@stoplight/prism-cli/dist/index.js', 'mock', 'spec/openapi.yaml', '-p', String(port), '-h', '127.0.0.1'], base, `${base}/pets`);
}
