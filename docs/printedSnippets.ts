// What the README and the guides print for a reader to run: their shell blocks, their GitHub
// workflows and their GitLab jobs, each with where it is printed, and the blocks a comment
// `<!-- not-run: reason -->` right before the fence keeps from the package tier's run of them
// (scripts/docsRunAsPrinted.test.ts). The reason is required; the unit test lists every such block.
// A block a reader is told to save (`<!-- file: NAME -->` right before its fence, any language) is
// written under that name, in its place in the guide's terminal session, for the blocks after it.
import { parse as parseYaml } from 'yaml';
import { codeBlocks } from './codeBlocks.ts';

export type SnippetKind = 'shell' | 'github-workflow' | 'gitlab-ci' | 'conformance-config' | 'file';

export interface PrintedSnippet {
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  kind: SnippetKind;
  text: string;
  /** Why the block is not run as printed, from its `<!-- not-run: … -->` comment. */
  notRun?: string;
  /** For a block the reader saves (`<!-- file: NAME -->`): the file's name. */
  saveAs?: string;
}

const notRunMarker = /^\s*<!--\s*not-run:(.*?)-->\s*$/;
const fileMarker = /^\s*<!--\s*file:\s*([\w.-]+)\s*-->\s*$/;

/** Every runnable block of a Markdown document, in order (yaml blocks that are neither a workflow, a GitLab job nor a config file are left out). */
export function printedSnippets(file: string, markdown: string): PrintedSnippet[] {
  const lines = markdown.split('\n');
  const snippets: PrintedSnippet[] = [];
  for (const block of codeBlocks(markdown)) {
    let before = block.line - 2;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const saveAs = before >= 0 ? fileMarker.exec(lines[before]!)?.[1] : undefined;
    if (saveAs !== undefined) {
      snippets.push({ file, line: block.line, kind: 'file', text: block.text, saveAs });
      continue;
    }
    const kind = kindOf(block.lang, block.text);
    if (!kind) continue;
    const marker = before >= 0 ? notRunMarker.exec(lines[before]!) : null;
    const snippet: PrintedSnippet = { file, line: block.line, kind, text: block.text };
    if (marker) snippet.notRun = marker[1]!.trim();
    snippets.push(snippet);
  }
  return snippets;
}

/** The lines of a document holding a `not-run` marker that no code block follows: a marker that keeps nothing. */
export function strayMarkers(markdown: string): number[] {
  const lines = markdown.split('\n');
  const stray: number[] = [];
  lines.forEach((line, i) => {
    if (!notRunMarker.test(line)) return;
    let next = i + 1;
    while (next < lines.length && lines[next]!.trim() === '') next++;
    if (!/^ {0,3}(`{3,}|~{3,})\s*(sh|bash|shell|ya?ml)\b/.test(lines[next] ?? '')) stray.push(i + 1);
  });
  return stray;
}

function kindOf(lang: string, text: string): SnippetKind | undefined {
  if (['sh', 'bash', 'shell'].includes(lang)) return 'shell';
  if (lang !== 'yaml' && lang !== 'yml') return undefined;
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  if ('on' in record && 'jobs' in record) return 'github-workflow';
  if ('baseUrl' in record || 'apiKey' in record) return 'conformance-config';
  const jobs = Object.values(record).filter((job) => job && typeof job === 'object' && Array.isArray((job as Record<string, unknown>).script));
  return jobs.length > 0 ? 'gitlab-ci' : undefined;
}

/**
 * What a reader supplies that the printed text leaves to them, and the test gives instead. The
 * example deployments' URLs name the mocks the test starts; a key printed as `...` is the test's key
 * for that variable; a release asset's URL is the tarball just packed (the release attaches that
 * tarball). Nothing else of the text changes.
 */
export interface ReaderValues {
  /** `https://staging.api.example.com/v1`'s stand-in. */
  stagingUrl: string;
  /** `https://api.example.com/v1`'s stand-in. */
  productionUrl: string;
  /** The packed tarball, by absolute path. */
  tarball: string;
  /** Values of the variables a reader exports as `NAME=...`. */
  variables: Record<string, string>;
}

export function asTheReaderHasIt(text: string, values: ReaderValues): string {
  return text
    .replaceAll('https://staging.api.example.com/v1', values.stagingUrl)
    .replaceAll('https://api.example.com/v1', values.productionUrl)
    .replace(/https:\/\/github\.com\/[\w-]+\/pet-adoption-toolkit\/releases\/download\/v[\d.]+\/pet-adoption-toolkit-[\d.]+\.tgz/g, values.tarball)
    .replace(/\b([A-Z][A-Z0-9_]*)=\.\.\.(?=\s|$)/g, (all, name: string) => {
      const value = values.variables[name];
      if (value === undefined) throw new Error(`The docs export ${name}=... and the test has no value for it: add one to the reader's variables.`);
      return `${name}='${value}'`;
    });
}
