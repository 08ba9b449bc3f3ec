import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { fixtureKeys, fixturePets } from '../fixtures/generated/fixtureData.ts';
import { defaultKeysFile } from '../fixtures/loadFixtures.ts';
import { loadKeysFile } from '../mock/state/loadKeysFile.ts';
import { bundledSpec } from './bundledSpec.ts';
import { loadSpec } from './loadSpec.ts';

describe('the data committed for browser bundles', () => {
  it('is what scripts/bundleData.mjs writes from the sources today', async () => {
    // @ts-expect-error: a plain ES module script, without types.
    const { buildBundledData } = await import('../scripts/bundleData.mjs');
    const files = (await buildBundledData()) as { path: string; text: string }[];
    expect(files.map((f) => f.path)).toEqual(['spec/generated/openapiDocument.ts', 'fixtures/generated/fixtureData.ts']);
    for (const { path, text } of files) {
      const committed = await readFile(projectPath(path), 'utf8').catch(() => undefined);
      // Compared as text, not rewritten: a difference means a source changed since the file was generated.
      expect(committed === text, `${path} is not what scripts/bundleData.mjs writes now: run npm run gen:bundled and commit it`).toBe(true);
    }
  });

  it('gives in bundledSpec() the document and operations loadSpec() reads from spec/openapi.yaml', async () => {
    const loaded = await loadSpec();
    const bundled = bundledSpec();
    expect(bundled.document).toStrictEqual(loaded.document);
    expect(bundled.operations).toStrictEqual(loaded.operations);
    expect(bundled.path).toBe('spec/openapi.yaml');
    expect(bundledSpec()).toBe(bundled);
  });

  it('gives the demo keys as loadKeysFile reads fixtures/keys.json, and pets with their own ids', async () => {
    expect(fixtureKeys).toStrictEqual(await loadKeysFile(defaultKeysFile));
    expect(new Set(fixturePets.map((p) => p.id)).size).toBe(fixturePets.length);
  });
});
