import { describe, expect, it } from 'vitest';
import { ArgsError, splitArgs } from './splitArgs.ts';

describe('splitArgs', () => {
  it('splits on blanks and keeps quoted blanks inside one argument', () => {
    expect(splitArgs(`  --config "my conf.yml"\t--header 'X-Tenant: acme'\n--seed 3 `)).toEqual(['--config', 'my conf.yml', '--header', 'X-Tenant: acme', '--seed', '3']);
  });

  it('joins quoted and unquoted parts of one word, as a shell does', () => {
    expect(splitArgs(`--header=X-A:"b c"'d'e`)).toEqual(['--header=X-A:b cde']);
    expect(splitArgs(`"" ''`)).toEqual(['', '']);
  });

  it('honours backslash escapes outside quotes and \\" and \\\\ inside double quotes only', () => {
    expect(splitArgs(String.raw`a\ b "c\"d\\e\n" 'f\g'`)).toEqual(['a b', 'c"d\\e\\n', 'f\\g']);
  });

  it('runs and expands nothing: command substitutions, variables and globs stay text', () => {
    expect(splitArgs('$(touch pwned) `id` $HOME * ;rm')).toEqual(['$(touch', 'pwned)', '`id`', '$HOME', '*', ';rm']);
  });

  it('refuses an unclosed quote, saying where it opens, rather than cutting the arguments there', () => {
    expect(() => splitArgs(`--header "X-Tenant: acme --seed 3`)).toThrow(ArgsError);
    expect(() => splitArgs(`--header "X-Tenant: acme --seed 3`)).toThrow(/double quote at character 10 is never closed/);
    expect(() => splitArgs(`--header 'it''s`)).toThrow(/single quote at character 14 is never closed/);
  });

  it('refuses a trailing backslash', () => {
    expect(() => splitArgs('--seed 3 \\')).toThrow(/ends with a backslash/);
  });

  it('gives no argument for an empty or blank line', () => {
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs(' \n\t ')).toEqual([]);
  });
});
