import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { asTheReaderHasIt, printedSnippets, strayMarkers } from './printedSnippets.ts';
import { calledPorts, readerSession, serverStart } from './readerSession.ts';
import { condition, evaluate, substitute, type ExpressionContext } from './workflowExpressions.ts';

const files = ['README.md', ...readdirSync(projectPath('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(projectPath(file), 'utf8');

describe('the blocks the docs print for a reader to run (run by scripts/docsRunAsPrinted.test.ts)', () => {
  it('are all run, but for these, each kept back with its reason', () => {
    // By file and first line, not line number: edits above a block do not move it in this list.
    const notRun = files.flatMap((file) => printedSnippets(file, read(file)).filter((s) => s.notRun !== undefined).map((s) => `${s.file}: ${s.text.trim().split('\n')[0]}`));
    expect(notRun).toEqual([
      'README.md: npm install && npm start     # the mock, with its default fixtures, at http://127.0.0.1:4010/v1',
      'docs/releasing.md: npm version X.Y.Z --no-git-tag-version',
      'docs/releasing.md: git tag vX.Y.Z && git push origin main vX.Y.Z',
      'docs/testing.md: node scripts/withNode.mjs 22 npm test',
    ]);
    for (const file of files) for (const snippet of printedSnippets(file, read(file))) if (snippet.notRun !== undefined) expect(snippet.notRun.length, `${file}:${snippet.line} gives no reason`).toBeGreaterThan(10);
  });

  it('hold no not-run marker that keeps no block', () => {
    for (const file of files) expect(strayMarkers(read(file)), file).toEqual([]);
  });

  it('include workflows, a GitLab job, a config file, shell blocks and a file the reader saves', () => {
    const kinds = new Set(files.flatMap((file) => printedSnippets(file, read(file)).map((s) => s.kind)));
    expect([...kinds].sort()).toEqual(['conformance-config', 'file', 'github-workflow', 'gitlab-ci', 'shell']);
  });

  it('take a block marked <!-- file: NAME --> as a file the reader saves under that name, whatever its language', () => {
    const markdown = ['Saved as `p.json`:', '', '<!-- file: p.json -->', '```json', '{ "a": 1 }', '```', '', '```sh', 'cat p.json', '```', ''].join('\n');
    expect(printedSnippets('x.md', markdown).map(({ kind, saveAs, text }) => ({ kind, saveAs, text }))).toEqual([
      { kind: 'file', saveAs: 'p.json', text: '{ "a": 1 }' },
      { kind: 'shell', saveAs: undefined, text: 'cat p.json' },
    ]);
  });
});

describe('asTheReaderHasIt', () => {
  const values = { stagingUrl: 'http://127.0.0.1:1/v1', productionUrl: 'http://127.0.0.1:2/v1', tarball: '/tmp/p.tgz', variables: { PETS_API_KEY: 'demo-pro' } };
  it('gives the example deployments, the key a reader exports as ... and the release asset the test\'s stand-ins, and changes nothing else', () => {
    expect(asTheReaderHasIt('export PETS_API_KEY=...   # the key\nnpx pets-conformance --base-url https://staging.api.example.com/v1 && x https://api.example.com/v1', values))
      .toBe("export PETS_API_KEY='demo-pro'   # the key\nnpx pets-conformance --base-url http://127.0.0.1:1/v1 && x http://127.0.0.1:2/v1");
    expect(asTheReaderHasIt('npm i https://github.com/your-org/pet-adoption-toolkit/releases/download/v0.2.0/pet-adoption-toolkit-0.2.0.tgz', values)).toBe('npm i /tmp/p.tgz');
  });
  it('refuses a variable exported as ... that the test has no value for', () => {
    expect(() => asTheReaderHasIt('export OTHER=...', values)).toThrow(/OTHER=\.\.\. and the test has no value/);
  });
});

describe('readerSession', () => {
  it('finds the servers a line starts and their ports, printed or default', () => {
    expect(serverStart('npx pets-mock')).toEqual({ port: 4010, background: false });
    expect(serverStart('npx pets-mock --port 4011 --redis redis://x &')).toEqual({ port: 4011, background: true });
    expect(serverStart('npx pets-conformance proxy --target x')).toEqual({ port: 8080, background: false });
    expect(serverStart('  npx pets-mock --port $port &')).toEqual({ port: undefined, background: true });
    expect(serverStart('redis-server --port 6379 --appendonly yes')).toEqual({ port: 6379, background: false });
    expect(serverStart('npx pets-conformance --base-url x')).toBeUndefined();
    expect(calledPorts('curl http://127.0.0.1:4010/__mock/faults  # or http://127.0.0.1:9/\n# http://127.0.0.1:8/')).toEqual([4010]);
  });
  it('runs a foreground server in a terminal of its own, finds a mock where a block calls one, and checks a kill frees its port', () => {
    const script = readerSession([
      { file: 'a.md', line: 1, text: 'npx pets-mock   # the mock\nnpx pets-conformance --base-url x' },
      { file: 'a.md', line: 5, text: 'npx pets-mock --port 4010 &\nMOCK_PID=$!\nkill $MOCK_PID' },
      { file: 'a.md', line: 9, text: 'curl http://127.0.0.1:4010/__mock/faults' },
    ]);
    expect(script).toContain("__terminal 4010 'npx pets-mock'\nnpx pets-conformance --base-url x");
    expect(script).toContain('__yield_port 4010\nnpx pets-mock --port 4010 &\nMOCK_PID=$!\nkill $MOCK_PID\n__free 4010');
    expect(script).toContain("echo '::block a.md:9::' >&2\n__ensure_mock 4010 1\ncurl");
  });
  it('writes a file the reader saves where the guide prints it, byte for byte, before the commands that read it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reader-'));
    const text = `{ "it's": "$HOME \\\\ \`x\`" }\n`;
    const script = readerSession([{ file: 'a.md', line: 1, text, saveAs: 'p.json' }, { file: 'a.md', line: 5, text: 'cat p.json > seen.txt' }]);
    await promisify(execFile)('bash', ['-c', script], { cwd: dir });
    expect(await readFile(join(dir, 'seen.txt'), 'utf8')).toBe(text);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('workflow expressions', () => {
  const context: ExpressionContext = { failed: false, contexts: { secrets: { KEY: 'k' }, inputs: { 'node-version': '24', 'upload-reports': 'true' }, steps: { run: { outputs: { 'exit-code': '1' } } } } };
  it('substitute contexts, compare loosely and call the status and JSON functions', () => {
    expect(substitute('a ${{ secrets.KEY }} ${{ steps.run.outputs.exit-code }}', context)).toBe('a k 1');
    expect(condition("${{ inputs.node-version != '' }}", context)).toBe(true);
    expect(condition("${{ always() && inputs.upload-reports == 'TRUE' }}", { ...context, failed: true })).toBe(true);
    expect(condition('inputs.upload-reports', { ...context, failed: true })).toBe(false);
    expect(JSON.parse(evaluate('toJSON(inputs)', context) as string)).toEqual(context.contexts.inputs);
  });
  it('refuse a secret the test gives no value, and what they do not know', () => {
    expect(() => substitute('${{ secrets.OTHER }}', context)).toThrow(/secrets\.OTHER has no test value/);
    expect(() => evaluate('hashFiles(\'x\')', context)).toThrow(/no function hashFiles/);
    expect(() => evaluate('matrix.node', context)).toThrow(/no context matrix/);
  });
});
