import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wholeNumber } from '../../common/wholeNumberOption.ts';
import { applyConfigFile, configOption } from './applyConfigFile.ts';
import { headerOption } from './extraHeaders.ts';
import { ConfigError } from './loadConfigFile.ts';

/** A command with the suite's kinds of options: env-backed, boolean, parsed number, repeatable header. */
function program(): Command {
  return new Command('pets-conformance')
    .addOption(new Option('--base-url <url>').env('PETS_BASE_URL').argParser((value) => {
      if (!/^https?:\/\//.test(value)) throw new InvalidArgumentError('Give an absolute http or https URL.');
      return value;
    }))
    .option('--read-only', 'GET only', false)
    .addOption(new Option('--timeout <ms>').default(10_000).argParser(wholeNumber(1)))
    .option('--report-dir <dir>', 'reports', 'reports')
    .addOption(headerOption())
    .addOption(configOption())
    .option('--list-checks')
    .exitOverride();
}

describe('--config', () => {
  let dir: string;
  let config: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'apply-config-'));
    config = join(dir, 'conformance.yml');
    await writeFile(config, 'baseUrl: http://from-file/v1\nreadOnly: true\ntimeout: 5000\nheaders:\n  X-Tenant: file\n  X-Region: eu\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function parse(args: string[], env: Record<string, string> = {}) {
    const saved = process.env.PETS_BASE_URL;
    if (env.PETS_BASE_URL) process.env.PETS_BASE_URL = env.PETS_BASE_URL;
    try {
      const p = program().parse(['--config', config, ...args], { from: 'user' });
      await applyConfigFile(p, env, dir);
      return p.opts();
    } finally {
      if (saved === undefined) delete process.env.PETS_BASE_URL;
      else process.env.PETS_BASE_URL = saved;
    }
  }

  it('fills every option the command line left at its default', async () => {
    expect(await parse([])).toMatchObject({ baseUrl: 'http://from-file/v1', readOnly: true, timeout: 5000, header: ['X-Tenant: file', 'X-Region: eu'] });
  });

  it('yields to the command line, and to environment variables', async () => {
    expect(await parse(['--base-url', 'http://from-cli/v1', '--timeout', '99'])).toMatchObject({ baseUrl: 'http://from-cli/v1', timeout: 99 });
    expect(await parse([], { PETS_BASE_URL: 'http://from-env/v1' })).toMatchObject({ baseUrl: 'http://from-env/v1' });
  });

  it('does not read a value the command line overrides, so a variable it names may be unset', async () => {
    await writeFile(config, 'baseUrl: ${PETS_BASE_URL}\nreadOnly: true\n');
    expect(await parse(['--base-url', 'http://from-cli/v1'])).toMatchObject({ baseUrl: 'http://from-cli/v1', readOnly: true });
    await expect(parse([])).rejects.toThrow(/baseUrl: .*PETS_BASE_URL.*Set PETS_BASE_URL in the environment/);
  });

  it('merges headers, a --header winning over the file by name', async () => {
    expect((await parse(['-H', 'X-Tenant: cli'])).header).toEqual(['X-Tenant: file', 'X-Region: eu', 'X-Tenant: cli']);
  });

  it('checks values with the option\'s own parser, naming the key', async () => {
    await writeFile(config, 'baseUrl: ftp://example.com/v1\n');
    await expect(parse([])).rejects.toThrow(ConfigError);
    await expect(parse([])).rejects.toThrow(/baseUrl: Give an absolute http or https URL/);
    await writeFile(config, 'timeout: 0\n');
    await expect(parse([])).rejects.toThrow(/timeout is 0, but must be >= 1/);
    await writeFile(config, 'headers:\n  Authorization: Bearer ${KEY}\n');
    await expect(parse([], { KEY: 'k' })).rejects.toThrow(/headers: The Authorization header cannot be set with --header/);
  });

  it('refuses keys that are not options of the run', async () => {
    await writeFile(config, 'listChecks: true\n');
    await expect(parse([])).rejects.toThrow(/unknown option "listChecks"|"listChecks" is not an option/);
  });
});
