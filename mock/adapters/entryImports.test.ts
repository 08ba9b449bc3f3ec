// What importing an adapter costs: its whole import graph, static and dynamic, as esbuild follows it.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';

/** Every file the entry can load (its own and the package's, however deep, lazily or not), and the packages it names. */
async function importGraph(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const { metafile } = await build({ entryPoints: [projectPath(entry)], absWorkingDir: projectPath(), bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' });
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports);
  return { files: Object.keys(metafile.inputs), packages: [...new Set(imports.filter((i) => i.external).map((i) => i.path))] };
}

describe('the adapters\' entry points', () => {
  it.each(['msw', 'playwright', 'vite'])('pet-adoption-toolkit/%s adapts the mock (openMock) and loads neither fastify, nor the CLI, nor commander', async (adapter) => {
    const { files, packages } = await importGraph(`mock/adapters/${adapter}.ts`);
    expect(files).toContain(`mock/adapters/${adapter}.ts`);
    expect(files).toContain('mock/core/openMock.ts');
    expect(files.filter((file) => /(^|\/)(cli|bin|buildMock)\.ts$|^mock\/index\.ts$|^common\/wholeNumberOption\.ts$/.test(file))).toEqual([]);
    expect(packages.filter((name) => name === 'fastify' || name.startsWith('@fastify/') || name === 'commander')).toEqual([]);
  });
});
