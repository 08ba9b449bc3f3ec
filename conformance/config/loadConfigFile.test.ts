import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkIds } from '../checks/index.ts';
import { ConfigError, configSchemaPath, loadConfigFile } from './loadConfigFile.ts';

describe('a config file', () => {
  let dir: string;
  const file = async (name: string, text: string) => {
    await writeFile(join(dir, name), text);
    return join(dir, name);
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-config-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads YAML with every option camelCased, ${NAME} from the environment, reportDir beside the file', async () => {
    const path = await file('conformance.yml', [
      '# yaml-language-server: $schema=./conformance-config.schema.json',
      'baseUrl: ${PETS_BASE_URL}',
      'apiKey: ${PETS_API_KEY}',
      'readOnly: true',
      'probeRateLimit: false',
      'probeMaxRequests: 500',
      'checks: [auth, pagination]',
      'excludeChecks: create-pet',
      'reportDir: out/reports',
      'timeout: 5000',
      'seed: 7',
      'maxWait: 30',
      'headers:',
      '  X-Tenant: acme',
      '  X-Gateway-Token: ${GATEWAY_TOKEN}',
    ].join('\n'));
    const config = await loadConfigFile(path, { PETS_BASE_URL: 'https://staging.example.com/v1', PETS_API_KEY: 'k-1', GATEWAY_TOKEN: 'gw-secret' });
    expect(config.values).toEqual({
      baseUrl: 'https://staging.example.com/v1', apiKey: 'k-1', readOnly: true, probeRateLimit: false, probeMaxRequests: 500,
      checks: ['auth', 'pagination'], excludeChecks: 'create-pet', reportDir: join(dir, 'out/reports'), timeout: 5000, seed: 7, maxWait: 30,
      headers: { 'X-Tenant': 'acme', 'X-Gateway-Token': 'gw-secret' },
    });
    // A header value from the environment is a secret: the reports show the variable.
    expect(config.secrets).toEqual({ 'gw-secret': '$GATEWAY_TOKEN' });
  });

  it('reads JSON, with a $schema for editors', async () => {
    const path = await file('conformance.json', JSON.stringify({ $schema: './conformance-config.schema.json', baseUrl: 'http://127.0.0.1:3000/v1', headers: ['X-Tenant: acme'] }));
    expect((await loadConfigFile(path, {})).values).toEqual({ baseUrl: 'http://127.0.0.1:3000/v1', headers: ['X-Tenant: acme'] });
  });

  it.each([
    ['missing.yml', null, /Cannot read the config file .*missing\.yml: it does not exist\. Check --config/],
    ['bad.json', '{"baseUrl": ', /is not valid JSON/],
    ['bad.yml', 'baseUrl: [unclosed', /is not valid YAML/],
    ['list.yml', '- baseUrl: x', /must hold an object of options/],
    ['unknown.yml', 'baseURL: http://x/v1', /unknown option "baseURL"; did you mean "baseUrl"\?/],
    ['readonly.yml', 'readonly: true', /unknown option "readonly"; did you mean "readOnly"\?/],
    ['typo.yml', 'checks: [auth, pagnation]', /checks\[1\] is "pagnation", not one of auth, .*; did you mean "pagination"\?/],
    ['timeout.yml', 'timeout: soon', /timeout is "soon", but must be integer/],
    ['type.yml', 'timeout: 1.5', /timeout is 1.5, but must be integer/],
    ['check.yml', 'checks: [nonsense]', /checks\[0\] is "nonsense", not one of auth, status-filter, /],
    ['env.yml', 'apiKey: ${PETS_API_KEY}', /apiKey: \$\{PETS_API_KEY\} is used but PETS_API_KEY is not set\. Set PETS_API_KEY in the environment/],
  ])('refuses %s with a message that names the problem', async (name, text, message) => {
    const path = text === null ? join(dir, name) : await file(name, text);
    await expect(loadConfigFile(path, {})).rejects.toThrow(ConfigError);
    await expect(loadConfigFile(path, {})).rejects.toThrow(message);
  });

  it('takes every check id the suite has in checks and excludeChecks, and only those', async () => {
    const schema = JSON.parse(await readFile(configSchemaPath, 'utf8'));
    for (const option of ['checks', 'excludeChecks']) expect(schema.properties[option].oneOf[0].items.enum, option).toEqual([...checkIds]);
    const path = await file('conformance.yml', 'baseUrl: http://127.0.0.1:1/v1\nchecks: [pet-lifecycle]\n');
    await expect(loadConfigFile(path, {})).resolves.toMatchObject({ values: { checks: ['pet-lifecycle'] } });
  });
});
