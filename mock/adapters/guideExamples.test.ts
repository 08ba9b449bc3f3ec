import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';

/** An example file as docs/frontend.md prints it: without its first comment line, importing the package's names. */
async function printed(file: string, from: string, to: string): Promise<string> {
  const text = await readFile(projectPath('mock', 'adapters', 'examples', file), 'utf8');
  return text.split('\n').slice(1).join('\n').trim().replace(from, to);
}

describe('the frontend guide\'s examples (docs/frontend.md)', () => {
  it('prints the Vitest example exactly as the test that runs it', async () => {
    const readme = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${await printed('petsApi.msw.test.ts', "'../msw.ts'", "'pet-adoption-toolkit/msw'")}\n\`\`\``);
  });

  it('prints the fault rules example exactly as the test that runs it', async () => {
    const readme = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${await printed('faults.msw.test.ts', "'../msw.ts'", "'pet-adoption-toolkit/msw'")}\n\`\`\``);
  });

  it('prints the countdown example exactly as the test that runs it', async () => {
    const readme = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${await printed('retryCountdown.msw.test.ts', "'../msw.ts'", "'pet-adoption-toolkit/msw'")}\n\`\`\``);
  });

  it('prints the graded client example exactly as the test that runs it', async () => {
    const readme = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${await printed('politeFetch.msw.test.ts', "'../msw.ts'", "'pet-adoption-toolkit/msw'")}\n\`\`\``);
  });

  it('prints the Playwright example exactly as the test that runs it', async () => {
    const readme = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${await printed('petsPage.browser.test.ts', "'../playwright.ts'", "'pet-adoption-toolkit/playwright'")}\n\`\`\``);
  });
});
