// What `pets-mock` loads before it answers its first request: its modules' value imports, followed
// from mock/bin.ts (type imports and `import()` left out, as neither loads anything at start).
// fastify and swagger-parser each cost the start about a fifth of a second or more, and it needs
// neither: fastify is one adapter among the hosts, and the contract's document refers only within
// itself (spec/dereferenceLocal.ts); both load when first needed.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';

/** The value imports of a module's text: module specifiers, relative or packages. */
export function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'/g)) {
    if (m[5]) {
      found.push(m[5]);
      continue;
    }
    if (m[2]) continue;
    const names = /\{([^}]*)\}/.exec(m[3]!)?.[1];
    const onlyTypes = names !== undefined && !/^[^,{]*\w[^,{]*,/.test(m[3]!.replace(/\{[^}]*\}/, '')) && names.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    if (!onlyTypes) found.push(m[4]!);
  }
  return found;
}

/** Every package the module loads at start, with the chain of modules that leads to it. */
function packagesLoadedFrom(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const chains = new Map<string, string[]>([[entry, [relative(projectPath(), entry)]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of valueImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const next = resolve(dirname(file), specifier);
        if (!chains.has(next)) {
          chains.set(next, [...chains.get(file)!, relative(projectPath(), next)]);
          queue.push(next);
        }
      } else if (!packages.has(specifier)) packages.set(specifier, chains.get(file)!);
    }
  }
  return packages;
}

describe('what pets-mock loads at start', () => {
  it('tells value imports from type imports', () => {
    expect(valueImports("import type { A } from 'a';\nimport { type B, type C } from 'b';\nimport { type D, e } from 'c';\nimport F, { type G } from 'f';\nexport { h } from 'h';\nexport type { I } from 'i';\nimport 'j';")).toEqual(['c', 'f', 'h', 'j']);
  });

  it('loads neither fastify nor swagger-parser', () => {
    const loaded = packagesLoadedFrom(projectPath('mock', 'bin.ts'));
    expect(loaded.size).toBeGreaterThan(3);
    const heavy = [...loaded].filter(([name]) => name === 'fastify' || name === '@apidevtools/swagger-parser').map(([name, chain]) => `${name} <- ${chain.join(' <- ')}`);
    expect(heavy).toEqual([]);
  });
});
