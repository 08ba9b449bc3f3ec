// `pets-conformance proxy --target URL --port P`: the validating proxy as a command. It serves until
// SIGINT or SIGTERM, then writes the suite's reports and resolves to the suite's exit code.
import { resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { baseUrlOption } from '../config/baseUrlOption.ts';
import type { CliIo, StopSignal } from '../../common/cliIo.ts';
import { isLoopbackHost } from '../../common/isLoopbackHost.ts';
import { wholeNumber } from '../../common/wholeNumberOption.ts';
import { finishRun } from '../finishRun.ts';
import { cannotRunReport, exitCodes } from '../runReport.ts';
import { toolName } from '../version.ts';
import { checkControlToken, controlTokenVariable } from './reportToken.ts';
import { defaultMaxHeaderCount, defaultMaxHeaderSize, proxyReportPath, proxyUsagePath, startProxy } from './startProxy.ts';
import { writeFile } from 'node:fs/promises';

interface ProxyCliOptions {
  target?: string;
  port: number;
  host: string;
  reportDir: string;
  sharedKey: boolean;
  maxBody: number;
  timeout: number;
  maxHeaderSize: number;
  maxHeaderCount: number;
  headersTimeout: number;
  requestTimeout: number;
  maxRecords: number;
  controlToken?: string;
  usageOut?: string;
}


export function proxyProgram(io: Pick<CliIo, 'stdout' | 'stderr'>): Command {
  return new Command(`${toolName} proxy`)
    .description('Forwards every request to the deployment unchanged, returns its answers unchanged, and judges each exchange against the contract. Stops on SIGINT or SIGTERM, writes the reports, and exits 0 (nothing failed), 1 (a failure was seen) or 2 (nothing could be judged).')
    .addOption(new Option('--target <url>', 'the deployment\'s base URL, ending in /v1; clients send the same paths to the proxy (/v1/pets)').argParser(baseUrlOption))
    .addOption(new Option('-p, --port <port>', 'port to listen on (0: any free one)').default(8080).argParser(wholeNumber(0)))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--report-dir <dir>', 'where to write the reports when it stops', 'reports')
    .option('--shared-key', 'other clients use the same keys directly: rate-limit accounting judges only what still holds', false)
    .addOption(new Option('--max-body <bytes>', 'the most bytes of one body kept for judging (the whole body is always forwarded)').default(4 * 1024 * 1024).argParser(wholeNumber(1024)))
    .addOption(new Option('--timeout <ms>', 'how long the deployment may take to answer').default(30_000).argParser(wholeNumber(1)))
    .addOption(new Option('--max-header-size <bytes>', 'the longest header section read either way; a longer request is answered 431').default(defaultMaxHeaderSize).argParser(wholeNumber(1024)))
    .addOption(new Option('--max-header-count <n>', 'the most header lines a request may carry; one with more is answered 431').default(defaultMaxHeaderCount).argParser(wholeNumber(1)))
    .addOption(new Option('--headers-timeout <ms>', 'how long a client may take to send a request\'s head (then 408)').default(20_000).argParser(wholeNumber(1)))
    .addOption(new Option('--request-timeout <ms>', 'how long a client may take to send a whole request (then 408)').default(120_000).argParser(wholeNumber(1)))
    .addOption(new Option('--max-records <n>', 'how many exchanges the reports keep, the last ones (every exchange is judged)').default(10_000).argParser(wholeNumber(1)))
    .addOption(new Option('--usage-out <file>', `when it stops, write each client's usage of the contract there (as GET ${proxyUsagePath} answers it), for pets-conformance --usage`))
    .addOption(new Option('--control-token <token>', `require "Authorization: Bearer <token>" on GET ${proxyReportPath}; prefer the environment variable, which ps does not show (env: ${controlTokenVariable})`).argParser((value) => (checkControlToken(value, 'The token'), value)))
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
}

/** Runs `pets-conformance proxy argv...` until a stop signal, and resolves to its exit code. */
export async function proxyMain(argv: string[], io: CliIo): Promise<number> {
  const cli = proxyProgram(io);
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const reportDir = () => resolve(io.cwd, cli.opts<ProxyCliOptions>().reportDir ?? 'reports');
  const cannotRun = async (reason: string) => {
    io.stderr.write(`${toolName} proxy: ${reason}\n`);
    return (await finishRun(cannotRunReport({ reason }), { reportDir: reportDir(), io })).exitCode;
  };
  let options: ProxyCliOptions;
  try {
    cli.parse(argv, { from: 'user' });
    options = cli.opts<ProxyCliOptions>();
  } catch (error) {
    if ((error as CommanderError).code === 'commander.helpDisplayed') return exitCodes.passed;
    return cannotRun((error as Error).message.replace(/^error: /, ''));
  }
  if (!options.target) return cannotRun('no target. Give --target with the deployment\'s base URL, such as --target https://staging.example.com/v1.');
  // The mock's control token, from the same variable: set but empty is a secret that did not arrive.
  const fromEnv = io.env[controlTokenVariable];
  if (options.controlToken === undefined && fromEnv !== undefined) {
    if (fromEnv.trim() === '') return cannotRun(`${controlTokenVariable} is set but empty, which would leave the report open to everyone. Give it the token, or unset it.`);
    try {
      checkControlToken(fromEnv, controlTokenVariable);
    } catch (error) {
      return cannotRun((error as Error).message);
    }
    options.controlToken = fromEnv;
  }
  if (options.headersTimeout > options.requestTimeout) return cannotRun(`--headers-timeout ${options.headersTimeout} is longer than --request-timeout ${options.requestTimeout}: a request's head is part of it. Give a headers timeout no longer than the request timeout.`);

  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({
      target: options.target,
      port: options.port,
      host: options.host,
      sharedKey: options.sharedKey,
      maxBody: options.maxBody,
      timeoutMs: options.timeout,
      maxHeaderSize: options.maxHeaderSize,
      maxHeaderCount: options.maxHeaderCount,
      headersTimeoutMs: options.headersTimeout,
      requestTimeoutMs: options.requestTimeout,
      maxRecords: options.maxRecords,
      ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
    });
  } catch (error) {
    return cannotRun(`could not listen on ${options.host}:${options.port}: ${(error as Error).message}. Choose another --port.`);
  }
  const base = `${proxy.url}${new URL(options.target).pathname.replace(/\/+$/, '')}`;
  out(`${toolName} proxy: ${base} forwards to ${options.target}; findings so far at ${proxy.url}${proxyReportPath}${options.controlToken !== undefined ? ' (with the control token)' : ''}. Stop it (Ctrl-C) to write the reports.`);
  if (options.controlToken === undefined && !isLoopbackHost(options.host)) {
    io.stderr.write(`${toolName} proxy: ${proxy.url}${proxyReportPath} needs no token, and the proxy listens on ${options.host}, which other machines may reach: anyone who does can read every failing request it saw. Set --control-token (or ${controlTokenVariable}).\n`);
  }
  io.serving?.(proxy.url);

  await new Promise<void>((stop) => {
    const signals: StopSignal[] = ['SIGINT', 'SIGTERM'];
    const listener = () => {
      for (const signal of signals) io.signals?.off(signal, listener);
      stop();
    };
    for (const signal of signals) io.signals?.on(signal, listener);
  });
  await proxy.close();
  if (options.usageOut !== undefined) {
    const path = resolve(io.cwd, options.usageOut);
    try {
      await writeFile(path, `${JSON.stringify(await proxy.usage(), null, 2)}\n`);
      out(`Usage: ${path}`);
    } catch (error) {
      io.stderr.write(`${toolName} proxy: could not write the usage to ${path}: ${(error as Error).message}. Give --usage-out a file in a folder that exists and can be written.\n`);
    }
  }
  const { report, findings } = await proxy.judge();
  out(`${toolName} proxy: ${proxy.forwarded()} exchanges forwarded, ${report.exchanges.length} judged; ${findings.filter((f) => f.level === 'failure').length} failures, ${findings.filter((f) => f.level === 'warning').length} warnings: ${report.verdict}${report.reason ? ` (${report.reason})` : ''}.`);
  const { exitCode, paths } = await finishRun(report, { reportDir: reportDir(), io });
  if (paths) out(`Reports: ${Object.values(paths).join(', ')}`);
  return exitCode;
}
