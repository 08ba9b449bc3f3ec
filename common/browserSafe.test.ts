// The modules a browser bundle takes in (the mock core inside MSW's setupWorker) import nothing of
// Node's: no `node:*`, no builtin such as fs or crypto, directly or through anything they import.
// esbuild, bundling for a browser, refuses to resolve a builtin; its message names the importer.
// Add a module to `browserSafe` when a browser bundle starts taking it in.
import { build, type BuildFailure, type Message } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './projectRoot.ts';

/** Entry modules, relative to the project's root, that must bundle for a browser. */
const browserSafe = [
  'spec/bundledSpec.ts',
  'fixtures/generated/fixtureData.ts',
  'mock/state/mockState.ts',
  'mock/state/keyEntry.ts',
  'spec/compileSchema.ts',
  'mock/core/createMockCore.ts',
  'mock/adapters/browserPetsMock.ts',
  'mock/adapters/mswBrowser.ts',
  'common/browserEntries/msw.ts',
];

const describeMessage = (m: Message) => (m.location ? `${m.location.file}:${m.location.line}: ${m.text}` : m.text) + m.notes.map((n) => ` (${n.text})`).join('');

/** What esbuild refuses when it bundles `entry` for a browser; empty when it bundles. */
async function browserProblems(entry: string): Promise<string[]> {
  try {
    await build({ absWorkingDir: projectRoot, entryPoints: [entry], bundle: true, write: false, platform: 'browser', format: 'esm', conditions: ['browser'], logLevel: 'silent' });
    return [];
  } catch (error) {
    const errors = (error as Partial<BuildFailure>).errors;
    if (!errors) throw error;
    return errors.map(describeMessage);
  }
}

describe('the modules a browser bundle takes in', () => {
  it.each(browserSafe)('%s bundles for a browser, with nothing of Node in it', async (entry) => {
    const problems = await browserProblems(entry);
    expect(problems, `${entry} does not bundle for a browser (it imports node:* or a Node builtin, or through a module it imports): ${problems.join('; ')}`).toEqual([]);
  });
});
