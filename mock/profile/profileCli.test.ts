import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMockCli } from '../testing/runMockCli.ts';

describe('pets-mock --profile', () => {
  it('serves with the profile\'s choices', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'profile-'));
    await writeFile(join(dir, 'p.json'), JSON.stringify({ errors: { unauthorized: { code: 'UNAUTHENTICATED' } }, wwwAuthenticate: false }));
    const cli = runMockCli(['--profile', join(dir, 'p.json'), '--quiet'], { PORT: '0', HOST: '127.0.0.1' });
    const base = await cli.serving;
    const res = await fetch(`${base}/pets`);
    expect([res.status, (await res.json()).code, res.headers.get('www-authenticate')]).toEqual([401, 'UNAUTHENTICATED', null]);
    cli.signal('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('refuses to start with a file that is no profile, and says why', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'profile-'));
    await writeFile(join(dir, 'p.json'), '{"listOrder":"sideways"}');
    const cli = runMockCli(['--profile', join(dir, 'p.json')], { PORT: '0' });
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toMatch(/--profile: .*not a deployment profile.*listOrder/);
  });
});
