import { InvalidArgumentError, Option, type Command } from 'commander';
import { ConfigError, loadConfigFile } from './loadConfigFile.ts';
import { parseHeader } from './extraHeaders.ts';

/** `--config FILE`: every option from a JSON or YAML file. */
export function configOption(): Option {
  return new Option('--config <file>', 'read options from a JSON or YAML file (keys camelCased: baseUrl, apiKey, readOnly, headers, …; ${NAME} from the environment); command-line options and PETS_* variables override it');
}

/** Options a config file may not set: they are about this invocation, not the run. */
const notConfigurable = new Set(['config', 'help', 'version', 'listChecks']);

/** Config keys that differ from the option's attribute name. */
const keyOf: Record<string, string> = { header: 'headers' };

function asLines(headers: unknown): string[] {
  return Array.isArray(headers) ? headers.map(String) : Object.entries(headers as Record<string, string>).map(([name, value]) => `${name}: ${value}`);
}

/**
 * After `program.parse()`: when `--config` was given, fills every option the command line and the
 * environment left at its default from the file (commander's "config" source: default < config <
 * env < cli), through the option's own parser, so a value is checked the same way wherever it
 * comes from. Headers merge: the file's first, then `--header`, a later one winning by name.
 * Returns the secrets to keep out of the reports (header values taken from the environment).
 */
export async function applyConfigFile(program: Command, env: Record<string, string | undefined>, cwd = process.cwd()): Promise<{ secrets: Record<string, string>; path?: string }> {
  const file = program.getOptionValue('config') as string | undefined;
  if (file === undefined) return { secrets: {} };
  const options = new Map(program.options.map((o) => [keyOf[o.attributeName()] ?? o.attributeName(), o]));
  // What the command line or the environment set wins, so the file's value is not read (headers merge instead).
  const overridden = new Set([...options].filter(([key, o]) => key !== 'headers' && ['cli', 'env'].includes(program.getOptionValueSource(o.attributeName()) ?? '')).map(([key]) => key));
  const config = await loadConfigFile(file, env, cwd, overridden);
  for (const [key, value] of Object.entries(config.values)) {
    const option = options.get(key);
    if (!option || notConfigurable.has(option.attributeName())) throw new ConfigError(`The config file ${file}: "${key}" is not an option it can set.`);
    const name = option.attributeName();
    const source = program.getOptionValueSource(name);
    try {
      if (key === 'headers') {
        const lines = asLines(value);
        lines.forEach(parseHeader);
        const given = source === 'cli' ? (program.getOptionValue(name) as string[]) : [];
        program.setOptionValueWithSource(name, [...lines, ...given], source === 'cli' ? 'cli' : 'config');
        continue;
      }
      if (source !== undefined && source !== 'default' && source !== 'implied') continue;
      const text = Array.isArray(value) ? value.join(',') : String(value);
      const parsed = option.parseArg && typeof value !== 'boolean' ? option.parseArg(text, undefined as unknown as string) : value;
      program.setOptionValueWithSource(name, parsed, 'config');
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw new ConfigError(`The config file ${file}: ${key}: ${error.message}`);
      throw error;
    }
  }
  return { secrets: config.secrets, path: config.path };
}
