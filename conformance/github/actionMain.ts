// The GitHub Action's entry: turns the action's inputs into a `pets-conformance` run, and the run's
// exit code into the action's outputs. Bundled with everything it imports into action/conformance.mjs
// (scripts/buildAction.mjs), so the action installs and compiles nothing.
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CommanderError, type Option } from 'commander';
import type { CliIo } from '../../common/cliIo.ts';
import { conformanceProgram, main } from '../cli.ts';
import { finishRun } from '../finishRun.ts';
import { cannotRunReport, type Verdict } from '../runReport.ts';
import { parseHeader } from '../config/extraHeaders.ts';
import { didYouMean } from '../../common/nearest.ts';
import { actionInputs, hostInputs, inputVariable } from './actionInputs.ts';
import { ArgsError, splitArgs } from './splitArgs.ts';

/** An input the suite cannot use; the message names the input and the value given. */
class ActionInputError extends Error {}

const verdicts: Record<number, Verdict> = { 0: 'passed', 1: 'failed', 2: 'cannot-run' };

/** Options that print and exit 0: in a gate they would pass a deployment nobody checked. */
const printOnly = ['--help', '-h', '--version', '-V', '--list-checks'];

/**
 * Runs the suite as the action's inputs say, and resolves to its exit code (0, 1 or 2), after
 * writing `exit-code` and `verdict` to `$GITHUB_OUTPUT`. Keys are masked in the log first, and
 * reach the suite through the environment rather than its command line.
 */
export async function actionMain(io: CliIo): Promise<number> {
  const input = (name: string) => io.env[inputVariable(name)] ?? '';
  // Each line of a secret is masked on its own: the runner reads a line of the log as a workflow
  // command, and masks only whole values, so a key's second line would otherwise be printed in clear.
  for (const { name, kind } of actionInputs) {
    if (kind !== 'secret') continue;
    for (const line of input(name).split(/\r?\n|\r/)) if (line.trim()) io.stdout.write(`::add-mask::${line.trim()}\n`);
  }
  let code: number;
  try {
    refuseUndeclared(io.env.INPUTS_JSON);
    const { argv, env } = actionArguments(input, io);
    code = await main(argv, { ...io, env: { ...io.env, ...env } });
  } catch (error) {
    if (!(error instanceof ActionInputError)) throw error;
    io.stderr.write(`pets-conformance action: ${error.message}\n`);
    const reportDir = resolve(io.cwd, input('report-dir').trim() || 'conformance-reports');
    ({ exitCode: code } = await finishRun(cannotRunReport({ reason: error.message }), { reportDir, io }));
  }
  if (io.env.GITHUB_OUTPUT) await appendFile(io.env.GITHUB_OUTPUT, `exit-code=${code}\nverdict=${verdicts[code] ?? 'cannot-run'}\n`);
  return code;
}

/**
 * Refuses an input action.yml does not declare: GitHub only warns of one ("Unexpected input"), and
 * the step would run without what the workflow's author meant (a misspelt `read-only` runs writes).
 * A composite action sees the inputs it was given only whole, as `toJSON(inputs)`.
 */
function refuseUndeclared(given: string | undefined): void {
  if (!given) return;
  let names: string[];
  try {
    names = Object.keys(JSON.parse(given) as Record<string, unknown>);
  } catch {
    return;
  }
  const declared = [...actionInputs.map((i) => i.name), ...hostInputs];
  const unknown = names.filter((name) => !declared.includes(name.toLowerCase()));
  if (unknown.length > 0) {
    const [first] = unknown;
    throw new ActionInputError(`Input ${first} is not an input of this action${didYouMean(first!, declared) || '.'} Fix its name under with: (the inputs are ${declared.join(', ')}).`);
  }
}

/** The command line and the environment variables the inputs make; throws ActionInputError naming a bad input. */
function actionArguments(input: (name: string) => string, io: CliIo): { argv: string[]; env: Record<string, string> } {
  const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
  const options = conformanceProgram(silent).options as Option[];
  const argv: string[] = [];
  const env: Record<string, string> = {};
  for (const { name, kind, target } of actionInputs) {
    const raw = input(name);
    const value = raw.trim();
    if (!value) continue;
    const bad = (why: string) => new ActionInputError(`Input ${name}: ${JSON.stringify(raw)} ${why}`);
    if (kind === 'secret') {
      // A bearer token is one line (RFC 6750, 2.1: b64token); a value of several is a secret pasted wrong.
      if (/[\r\n]/.test(value)) throw new ActionInputError(`Input ${name} holds ${value.split(/\r?\n|\r/).length} lines; a key is one line. Set the secret to the key alone (each line is masked in the log).`);
      env[target] = value;
    } else if (kind === 'flag') {
      // As @actions/core's getBooleanInput reads a boolean: the YAML 1.2 core schema's spellings.
      if (/^(true|True|TRUE)$/.test(value)) argv.push(target);
      else if (!/^(false|False|FALSE)$/.test(value)) throw bad('is not a boolean. Give true or false.');
    } else if (kind === 'value') {
      const option = options.find((o) => o.long === target)!;
      try {
        option.parseArg?.(value, option.defaultValue);
      } catch (error) {
        throw bad(`is refused: ${(error as Error).message}`);
      }
      argv.push(target, value);
    } else if (kind === 'lines') {
      value.split(/\r?\n/).forEach((line, index) => {
        if (!line.trim()) return;
        try {
          parseHeader(line.trim());
        } catch (error) {
          // The CLI's message speaks of -H; here the header came from an input line.
          throw new ActionInputError(`Input ${name}, line ${index + 1} (${JSON.stringify(line.trim())}), is refused: ${(error as Error).message.replace(/, e\.g\. -H ("[^"]*")/, ', one a line, e.g. $1').replace(/ with --header/, ' this way')}`);
        }
        argv.push(target, line.trim());
      });
    } else {
      let words: string[];
      try {
        words = splitArgs(value);
      } catch (error) {
        if (error instanceof ArgsError) throw new ActionInputError(`Input args cannot be split into options: ${error.message}`);
        throw error;
      }
      // `-Vh` is -V and -h, as commander reads clustered short options.
      const printing = words.find((w) => printOnly.includes(w) || /^-[A-Za-z]*[Vh][A-Za-z]*$/.test(w));
      if (printing) throw new ActionInputError(`Input args: ${printing} only prints and checks nothing, so the step would pass unchecked. Remove it.`);
      try {
        conformanceProgram(silent).parse(words, { from: 'user' });
      } catch (error) {
        if (error instanceof CommanderError) throw new ActionInputError(`Input args: ${error.message.replace(/^error: /, '')}`);
        throw error;
      }
      argv.push(...words);
    }
  }
  if (!input('base-url').trim() && !input('config').trim() && !argv.includes('--base-url') && !io.env.PETS_BASE_URL) {
    throw new ActionInputError('Input base-url is empty. Give the deployment\'s base URL, such as https://staging.example.com/v1, or a config input that sets baseUrl.');
  }
  if (!env.PETS_API_KEY && !input('config').trim() && !argv.includes('--api-key') && !io.env.PETS_API_KEY) {
    throw new ActionInputError('Input api-key is empty. Pass a repository secret, such as api-key: ${{ secrets.STAGING_PETS_API_KEY }}; a secret that is not set, or a workflow run from a fork, gives an empty value.');
  }
  return { argv, env };
}
