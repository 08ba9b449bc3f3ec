import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { profileSchema } from '../../mock/profile/profile.ts';
import { driftFields } from './driftFields.ts';

const doc = (name: string) => readFile(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
/** The first cells of a Markdown table's rows. */
const firstCells = (text: string) => [...text.matchAll(/^\| ([^|]+?) \|/gm)].map((m) => m[1]!);

describe('the open choices a drift run observes', () => {
  it('each belong to a row of docs/contract-choices.md', async () => {
    const rows = new Set(firstCells(await doc('contract-choices.md')));
    expect(driftFields.filter((f) => !rows.has(f.row)).map((f) => `${f.field}: ${f.row}`)).toEqual([]);
  });

  it('are profile fields docs/drift.md describes, as every field of the profile\'s schema is', async () => {
    const described = new Set(firstCells(await doc('drift.md')).flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
    const schemaFields = Object.keys((profileSchema as { properties: object }).properties);
    expect(schemaFields.filter((f) => !described.has(f))).toEqual([]);
    expect(driftFields.map((f) => f.field.split('.')[0]!).filter((f) => !schemaFields.includes(f))).toEqual([]);
  });
});
