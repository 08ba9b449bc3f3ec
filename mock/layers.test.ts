// The mock's modules as an import graph (type imports included, tests and test helpers left out):
// no module reaches itself through its imports, and the framework-free parts load no framework.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../common/testing/importCircles.ts';
import { projectPath } from '../common/projectRoot.ts';

const root = projectPath('mock');

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'testing' || name === 'examples' ? [] : sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) && name !== 'testing.ts' ? [path] : [];
  });
}

/** Every module of mock/ and what it imports: relative modules by path, packages by name. */
function importGraph(): Map<string, { modules: string[]; packages: string[] }> {
  const graph = new Map<string, { modules: string[]; packages: string[] }>();
  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]!);
    graph.set(relative(root, file), {
      modules: specifiers.filter((s) => s.startsWith('.')).map((s) => relative(root, resolve(dirname(file), s))).filter((s) => !s.startsWith('..')),
      packages: specifiers.filter((s) => !s.startsWith('.')),
    });
  }
  return graph;
}


describe('the mock\'s modules', () => {
  const graph = importGraph();

  it('form no import circle', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(new Map([...graph].map(([module, { modules }]) => [module, modules])))).toEqual([]);
  });

  it.each(['core', 'state', 'pipeline', 'rateLimits', 'control', 'errors', 'redis'])('in mock/%s import no fastify: fastify is one adapter (adapters/fastify.ts) among the hosts', (folder) => {
    const framework = [...graph].filter(([module]) => module.startsWith(`${folder}/`)).flatMap(([module, { packages }]) => packages.filter((name) => name === 'fastify' || name.startsWith('@fastify/')).map((name) => `${module} imports ${name}`));
    expect(framework).toEqual([]);
  });
});
