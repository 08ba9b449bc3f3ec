// The mock's modules as an import graph (type imports included, tests and test helpers left out):
// no module reaches itself through its imports, each imports only from its own layer or below
// (docs/architecture.md), and the framework-free parts load no framework.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../common/testing/importCircles.ts';
import { projectPath } from '../common/projectRoot.ts';

const root = projectPath('mock');

/**
 * The layers, bottom first, by path within mock/: a file belongs to the first that names it.
 * The leaves every part reads (errors, the core's plain types, the plans, the observation a log
 * entry holds); the state's contract and its parts; rate limiting, the client report and the
 * in-memory state that counts with them; the pipeline; the control API; Redis; the core and
 * deployment profiles; the hosts; the server; the entry points.
 */
const layers: readonly (readonly RegExp[])[] = [
  [/^errors\//, /^core\/(coreTypes|utf8Length|prefixes)\.ts$/, /^pipeline\/parseAuthorization\.ts$/, /^rateLimits\/(plans|anonymousBucket)\.ts$/, /^clientReport\/clientObservation\.ts$/, /^server\/parseTrustProxy\.ts$/],
  [/^state\/(?!mockState\.ts$)/, /^core\/dateField\.ts$/],
  [/^rateLimits\//, /^clientReport\//, /^state\/mockState\.ts$/],
  [/^prism\//, /^pipeline\//],
  [/^control\//],
  [/^redis\//],
  [/^core\//, /^profile\//],
  [/^adapters\//, /^buildMock\.ts$/],
  [/^server\//],
  [/^(index|cli|bin|launchChromium)\.ts$/],
];

function layerOf(path: string): number {
  const at = layers.findIndex((patterns) => patterns.some((p) => p.test(path)));
  if (at < 0) throw new Error(`${path} is in no layer: add it to the layers of mock/layers.test.ts and docs/architecture.md`);
  return at;
}

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

  it('import only from their own layer or below', () => {
    const up = [...graph].flatMap(([file, { modules }]) => modules.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`));
    expect(up).toEqual([]);
  });

  it('are each in a layer, and the layers name files that exist', () => {
    for (const file of graph.keys()) expect(layerOf(file), file).toBeGreaterThanOrEqual(0);
    for (const patterns of layers) for (const p of patterns) expect([...graph.keys()].some((f) => p.test(f)), String(p)).toBe(true);
  });

  it('form no import circle', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(new Map([...graph].map(([module, { modules }]) => [module, modules])))).toEqual([]);
  });

  it.each(['core', 'state', 'pipeline', 'rateLimits', 'control', 'errors', 'redis'])('in mock/%s import no fastify: fastify is one adapter (adapters/fastify.ts) among the hosts', (folder) => {
    const framework = [...graph].filter(([module]) => module.startsWith(`${folder}/`)).flatMap(([module, { packages }]) => packages.filter((name) => name === 'fastify' || name.startsWith('@fastify/')).map((name) => `${module} imports ${name}`));
    expect(framework).toEqual([]);
  });
});
