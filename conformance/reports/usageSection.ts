// With `--usage`, what every report says first: for each client of the usage file, whether the
// deployment keeps the contract for what that client uses, and which used rules broke.
import type { RunReport } from '../runReport.ts';
import type { ClientUsageVerdict } from '../usage/usageVerdict.ts';

/** The most used failures a report lists for one client; the JSON report has them all. */
const listed = 10;

const cut = (text: string, max = 240) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const brokenLine = (b: ClientUsageVerdict['broken'][number]) => `${b.rule} on ${b.place}: ${cut(b.message)}`;
const more = (v: ClientUsageVerdict) => (v.broken.length > listed ? [`… and ${v.broken.length - listed} more (the JSON report lists them all)`] : []);
const source = (report: RunReport) => `usage ${report.usage!.source === 'hand' ? 'written by hand' : `written by the ${report.usage!.source}`}; the exit code stays the contract's verdict`;

/** Plain lines, for the console: empty without `--usage`. */
export function usageLines(report: RunReport): string[] {
  if (!report.usage) return [];
  return [
    ...report.usage.clients.flatMap((v) => [v.headline, ...v.broken.slice(0, listed).map((b) => `  - ${brokenLine(b)}`), ...more(v).map((m) => `  ${m}`)]),
    `(${source(report)})`,
    '',
  ];
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Markdown lines, right under the report's title. */
export function usageMarkdown(report: RunReport): string[] {
  if (!report.usage) return [];
  return [
    ...report.usage.clients.flatMap((v) => [`**${mdCell(v.headline)}**`, ...v.broken.slice(0, listed).map((b) => `- \`${b.rule}\` on ${mdCell(b.place)}: ${mdCell(cut(b.message))}`), ...more(v).map((m) => `- ${m}`), '']),
    `_${source(report)}._`,
    '',
  ];
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const htmlClass = { safe: 'passed', broken: 'failed', 'not-judged': 'cannot-run' } as const;

/** An HTML section, the page's first. */
export function usageHtml(report: RunReport): string {
  if (!report.usage) return '';
  const clients = report.usage.clients.map((v) => `<header class="${htmlClass[v.verdict]} usage"><p><strong>${escape(v.headline)}</strong></p>${
    v.broken.length === 0 ? '' : `<ul>${v.broken.slice(0, listed).map((b) => `<li><code>${escape(b.rule)}</code> on ${escape(b.place)}: ${escape(cut(b.message))}</li>`).join('')}${more(v).map((m) => `<li>${escape(m)}</li>`).join('')}</ul>`
  }</header>`);
  return `<section class="usage" aria-label="For this client">${clients.join('')}<p class="meta">${escape(source(report))}.</p></section>\n`;
}
