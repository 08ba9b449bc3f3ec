// The suite's modules in layers, each importing only from its own layer or below, and no import
// circle anywhere: docs/architecture.md gives the layers and what each holds.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../common/testing/importCircles.ts';
import { projectPath } from '../common/projectRoot.ts';

const root = projectPath('conformance');

/**
 * The layers, bottom first, by path within conformance/: a file belongs to the first that names it.
 * Test support (`testing/` folders) sits above them all and nothing below imports it.
 */
const layers: readonly (readonly RegExp[])[] = [
  [/^version\.ts$/],
  [/^http\//, /^specValidators\.ts$/],
  [/^cases\//],
  [/^model\//],
  [/^check\.ts$/, /^runReport\.ts$/, /^usage\//],
  [/^checks\//, /^traffic\//, /^preflight\.ts$/, /^unchecked\.ts$/],
  [/^runner\.ts$/],
  [/^reports\//],
  [/^github\/(?!action)/, /^config\//],
  [/^index\.ts$/, /^cli\.ts$/, /^finishRun\.ts$/, /^proxy\//, /^drift\//],
  [/^bin\.ts$/, /^github\/action/],
  [/(^|\/)testing\//],
];
const testSupport = layers.length - 1;

function layerOf(path: string): number {
  if (/(^|\/)testing\//.test(path)) return testSupport;
  const at = layers.findIndex((patterns) => patterns.some((p) => p.test(path)));
  if (at < 0) throw new Error(`${path} is in no layer: add it to the layers of conformance/layers.test.ts and docs/architecture.md`);
  return at;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each source file of conformance/ (tests aside), by its path there, with the files of conformance/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = sources(root);
  const known = new Set(files);
  return new Map(files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gm)].map((m) => resolve(dirname(file), m[1]!)).filter((target) => known.has(target));
    return [relative(root, file), targets.map((t) => relative(root, t))];
  }));
}


describe('the suite\'s modules', () => {
  const graph = importGraph();

  it('import no circle', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('import only from their own layer or below', () => {
    const up = [...graph].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} -> ${t}`));
    expect(up).toEqual([]);
  });

  it('are each in a layer, and the layers name files that exist', () => {
    for (const file of graph.keys()) expect(layerOf(file), file).toBeGreaterThanOrEqual(0);
    for (const patterns of layers) for (const p of patterns) expect([...graph.keys()].some((f) => p.test(f)), String(p)).toBe(true);
  });
});
