/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The info string's first word: `yaml`, `ts`, `sh`, … (empty when none). */
  lang: string;
  text: string;
  /** The line of the opening fence, 1-based. */
  line: number;
}

/** The fenced code blocks of a Markdown document, in order (``` or ~~~ fences, CommonMark). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(lines[j]!);
    }
    blocks.push({ lang: open[3]!.toLowerCase(), text: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The shell words of each command line in a block, with `\` line continuations joined; comments dropped. */
export function commandLines(text: string): string[][] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean)
    .map((line) => line.match(/'[^']*'|"[^"]*"|\S+/g) ?? []);
}
