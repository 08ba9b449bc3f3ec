import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKeysFile } from '../../fixtures/loadFixtures.ts';
import { loadKeysFile } from './loadKeysFile.ts';

async function keysFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'keys-')), 'keys.json');
  await writeFile(file, text);
  return file;
}

describe('loadKeysFile', () => {
  it('reads the demo keys, one per plan', async () => {
    expect((await loadKeysFile(defaultKeysFile)).map((k) => k.plan).sort()).toEqual(['business', 'enterprise', 'free', 'pro']);
  });

  it.each([
    ['a missing file', null, /Cannot read the API keys file .*Check the path/],
    ['text that is not JSON', '[{"key": ', /The API keys file .* is not valid JSON.*Fix the file/],
    ['JSON that is not an array', '{"key": "k", "plan": "pro"}', /must hold a JSON array of \{key, plan\}/],
    ['an entry without a key', '[{"plan": "pro"}]', /bad entry at \[0\].*non-empty "key"/],
    ['an unknown plan', '[{"key": "k", "plan": "gold"}]', /bad entry at \[0\].*free, pro, business or enterprise/],
    ['a limit out of range', '[{"key": "k", "plan": "pro", "perMinute": 0}]', /bad perMinute at \[0\]/],
  ])('refuses %s, naming the file and what to fix', async (_, text, message) => {
    const file = text === null ? join(tmpdir(), 'no-such-dir-for-keys', 'keys.json') : await keysFile(text);
    await expect(loadKeysFile(file)).rejects.toThrow(message);
  });
});
