import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';

/** An example file as docs/frontend.md prints it: without its first comment line, importing the package's names. */
async function printed(file: string, from: string, to: string): Promise<string> {
  const text = await readFile(projectPath('mock', 'adapters', 'examples', file), 'utf8');
  return text.split('\n').slice(1).join('\n').trim().replace(from, to);
}

describe('the frontend guide\'s examples (docs/frontend.md)', () => {
  it.each([
    ['Vitest', 'petsApi.msw.test.ts', 'msw'],
    ['fault rules', 'faults.msw.test.ts', 'msw'],
    ['countdown', 'retryCountdown.msw.test.ts', 'msw'],
    ['graded client', 'politeFetch.msw.test.ts', 'msw'],
    ['Playwright', 'petsPage.browser.test.ts', 'playwright'],
  ])('prints the %s example exactly as the test that runs it', async (_, file, adapter) => {
    const guide = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
    expect(guide).toContain(`\`\`\`ts\n${await printed(file, `'../${adapter}.ts'`, `'pet-adoption-toolkit/${adapter}'`)}\n\`\`\``);
  });
});
