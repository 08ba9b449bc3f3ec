import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkIds, checks } from './index.ts';

describe('the checks', () => {
  it('have unique, stable kebab-case ids, a title, a severity and a description', () => {
    expect(new Set(checkIds).size).toBe(checks.length);
    for (const check of checks) {
      expect(check.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(check.title.length).toBeGreaterThan(10);
      expect(check.description.length).toBeGreaterThan(40);
      expect(['critical', 'high', 'medium', 'low']).toContain(check.severity);
    }
  });

  it('each have a heading in docs/checks.md named after their id, in run order', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../docs/checks.md', import.meta.url)), 'utf8');
    const headings = [...readme.matchAll(/^## `([a-z-]+)`$/gm)].map((m) => m[1]);
    expect(headings).toEqual([...checkIds]);
  });
});
