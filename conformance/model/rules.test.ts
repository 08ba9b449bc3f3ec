import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';
import { rules } from './rules.ts';

describe('rules: what each demands of the status', () => {
  it('says pinned or open with the words it rests on, and none only where it judges no status', () => {
    for (const rule of rules) {
      if (rule.status === 'none') expect(rule.statusBasis, rule.id).toBeUndefined();
      else expect(rule.statusBasis, rule.id).toMatch(/\w{3}/);
    }
    expect(rules.find((r) => r.id === 'auth.keyless-refused')?.status).toBe('pinned');
    expect(rules.find((r) => r.id === 'status.no-5xx')?.status).toBe('open');
  });

  it('are listed in docs/checks.md with the same status, each once', async () => {
    const doc = await readFile(projectPath('docs', 'checks.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z0-9.-]+)` \| `([a-z-]+)` \| (pinned|open|none) \|/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(rules.map((r) => [r.id, r.checkId, r.status]));
  });
});
