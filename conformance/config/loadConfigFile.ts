import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { projectPath } from '../../common/projectRoot.ts';
import { schemaCheck } from '../../common/schemaCheck.ts';
import { MissingVariableError, substituteEnv } from './substituteEnv.ts';

/** The JSON Schema of the config file, shipped for editors (`$schema` in JSON, `yaml-language-server` in YAML). */
export const configSchemaPath = projectPath('conformance/config/conformance-config.schema.json');

/** A config file that cannot be used; the message names the file and says what to change. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface LoadedConfig {
  path: string;
  /** Option values by camelCased long option (`baseUrl`), `${NAME}` replaced; `reportDir` and `usage` resolved against the file's folder. */
  values: Record<string, unknown>;
  /** Header values taken from the environment, and what the reports show instead (`$GATEWAY_TOKEN`). */
  secrets: Record<string, string>;
}

/** Replaces `${NAME}` in every string of the file, naming the field when a variable is missing. */
function substituteAll(value: unknown, env: Record<string, string | undefined>, at: string, onUsed: (at: string, used: Map<string, string>) => void): unknown {
  if (typeof value === 'string') {
    try {
      const { text, used } = substituteEnv(value, env);
      if (used.size > 0) onUsed(at, used);
      return text;
    } catch (error) {
      if (error instanceof MissingVariableError) throw new ConfigError(`${at}: ${error.message}. Set ${error.variable} in the environment, or write \${${error.variable}:-default}.`);
      throw error;
    }
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteAll(item, env, `${at}[${i}]`, onUsed));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteAll(v, env, at === '' ? k : `${at}.${k}`, onUsed)]));
  }
  return value;
}

/**
 * Reads a config file, JSON (`.json`) or YAML (anything else), replaces `${NAME}` from `env`, and
 * checks it against the config's JSON Schema. The keys in `overridden` (set on the command line or by
 * a PETS_* variable, which win) are left out first: a `${PETS_BASE_URL}` the environment does not
 * fill is no error when `--base-url` gave the URL.
 */
export async function loadConfigFile(file: string, env: Record<string, string | undefined>, cwd = process.cwd(), overridden: ReadonlySet<string> = new Set()): Promise<LoadedConfig> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read the config file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}. Check --config.`);
  }
  let parsed: unknown;
  try {
    parsed = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    throw new ConfigError(`The config file ${file} is not valid ${extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (parsed === null || parsed === undefined) parsed = {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`The config file ${file} must hold an object of options, such as baseUrl: https://staging.api.example.com/v1.`);

  const secrets: Record<string, string> = {};
  let values: Record<string, unknown>;
  const used = Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter(([key]) => !overridden.has(key)));
  try {
    values = substituteAll(used, env, '', (at, used) => {
      // A header value that came from the environment is a secret: reports show the variable instead.
      if (at.startsWith('headers')) for (const [name, value] of used) if (value !== '') secrets[value] = `$${name}`;
    }) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`The config file ${file}: ${error.message}`);
    throw error;
  }
  const [problem] = schemaCheck(JSON.parse(await readFile(configSchemaPath, 'utf8')), { nameIs: 'option' })(values);
  if (problem !== undefined) throw new ConfigError(`The config file ${file} has a problem: ${problem}. Its options are the long options camelCased (baseUrl, apiKey, readOnly, …); see ${configSchemaPath}.`);
  delete values.$schema;
  if (typeof values.reportDir === 'string') values.reportDir = resolve(dirname(path), values.reportDir);
  if (typeof values.usage === 'string') values.usage = resolve(dirname(path), values.usage);
  return { path, values, secrets };
}
