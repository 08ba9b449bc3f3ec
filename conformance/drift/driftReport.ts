// A drift run's reports: a one-screen summary a frontend team reads first, then Markdown, HTML and
// JSON with every difference. Nothing here holds a key: the run's result carries none, and the
// writer (writeDriftReports.ts) hides any that a judge's message might quote.
import type { ChoiceDifference, ContractBreak, DriftResult } from './classifyDrift.ts';

const verdictWords = { kept: 'neither side breaks the contract', broken: 'a side breaks the contract', 'cannot-judge': 'could not judge' } as const;
const shownOr = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function choiceLine(c: ChoiceDifference, result: DriftResult): string {
  const cannot = c.mockCannotMake ? ` (the mock cannot make this choice: ${c.mockCannotMake})` : '';
  return `${c.field}: ${result.base.label} ${c.base.shown}; ${result.against.label} ${c.against.shown}${cannot}`;
}

/** What the generated traffic sent and how its pairs of answers compared. */
function generatedLine(result: DriftResult): string {
  const g = result.generated!;
  const o = g.outcome;
  return `Generated traffic (seed ${g.seed}): ${g.requests.base} requests to ${result.base.label}, ${g.requests.against} to ${result.against.label}; of ${g.pairs} pairs of answers ${o.same} alike, ${o.break} a break, ${o.choice} an open choice, ${o.unnamed} a difference no choice names, ${o.meaningless} meaningless.`;
}

const shownBy = (c: ChoiceDifference) => (c.requests !== undefined ? `${c.requests} generated request(s), e.g. ${c.example}` : 'its probe');

const breakLine = (b: ContractBreak) => `${b.side}: ${b.check}/${b.rule}${b.exchange ? ` on ${b.exchange.method} ${b.exchange.path} (${b.exchange.status})` : ''}: ${b.message}`;

/** The summary printed first: the verdict, the breaks, the open choices made differently, in one screen. */
export function driftSummary(result: DriftResult, maxLines = 20): string {
  const lines = [
    `Drift: ${result.base.label} (${result.base.baseUrl}) against ${result.against.label} (${result.against.baseUrl}): ${verdictWords[result.verdict]}, exit ${result.exitCode}.`,
    ...(result.reason ? [`Could not judge: ${result.reason}`] : []),
    `${result.breaks.length} contract break(s), ${result.choices.length} open choice(s) made differently${result.failOnDrift ? ' (--fail-on-drift: each fails the run)' : ''}, ${result.same.length} made alike, ${result.meaningless.length} meaningless difference(s), ${result.unobserved.length} not observed.`,
    ...(result.generated ? [generatedLine(result)] : []),
  ];
  if (result.breaks.length > 0) lines.push('Contract breaks:', ...result.breaks.slice(0, 5).map((b) => `  ${breakLine(b).slice(0, 220)}`), ...(result.breaks.length > 5 ? [`  … and ${result.breaks.length - 5} more in the reports`] : []));
  if (result.choices.length > 0) {
    const room = Math.max(3, maxLines - lines.length - 3);
    lines.push('Open choices made differently:', ...result.choices.slice(0, room).map((c) => `  ${choiceLine(c, result)}`), ...(result.choices.length > room ? [`  … and ${result.choices.length - room} more in the reports`] : []));
  }
  if (result.cannotMake.length > 0) lines.push(`The mock cannot make ${result.cannotMake.length} of ${result.base.label}'s choices: ${result.cannotMake.map((c) => c.field).join(', ')}.`);
  return lines.join('\n');
}

export function driftMarkdown(result: DriftResult): string {
  const out = [
    `# Drift: ${result.base.label} against ${result.against.label}`,
    '',
    `**${verdictWords[result.verdict]}** (exit ${result.exitCode}).${result.reason ? ` ${result.reason}` : ''}`,
    '',
    '```',
    driftSummary(result),
    '```',
    '',
    '| Side | Base URL | Requests | Judges\' warnings |',
    '|---|---|---|---|',
    ...[result.base, result.against].map((s) => `| ${s.label} | ${s.baseUrl} | ${s.requests} | ${s.warnings} |`),
    '',
    '## Contract breaks',
    '',
    ...(result.breaks.length === 0
      ? ['None: neither side broke a rule the suite\'s judges hold.']
      : ['| Side | Check / rule | Exchange | Finding | The contract |', '|---|---|---|---|---|', ...result.breaks.map((b) => `| ${b.side} | ${b.check} / ${b.rule} | ${b.exchange ? `${b.exchange.method} ${b.exchange.path} (${b.exchange.status})` : ''} | ${shownOr(b.message)} | ${shownOr(b.quote)} |`)]),
    '',
    '## Open choices made differently',
    '',
    'The contract leaves these open ("not shown"); a frontend that depends on one side\'s choice breaks on the other. Rows of [docs/contract-choices.md](https://github.com/your-org/pet-adoption-toolkit/blob/main/docs/contract-choices.md).',
    '',
    ...(result.choices.length === 0
      ? ['None.']
      : [`| Choice | contract-choices.md row | ${result.base.label} | ${result.against.label} | Shown by | The mock |`, '|---|---|---|---|---|---|', ...result.choices.map((c) => `| ${shownOr(c.title)} (\`${c.field}\`) | ${shownOr(c.row)} | ${shownOr(c.base.shown)} | ${shownOr(c.against.shown)} | ${shownOr(shownBy(c))} | ${c.mockCannotMake ? `cannot make this choice: ${shownOr(c.mockCannotMake)}` : 'can make it (`--profile`)'} |`)]),
    '',
    '## Choices the mock cannot make',
    '',
    ...(result.cannotMake.length === 0 ? [`None: a mock given ${result.base.label}'s profile makes every choice observed.`] : result.cannotMake.map((c) => `- \`${c.field}\`: the mock cannot make this choice: ${c.reason}`)),
    '',
    '## Made alike',
    '',
    ...(result.same.length === 0 ? ['None.'] : result.same.map((s) => `- \`${s.field}\`: ${s.shown}`)),
    '',
    '## Not observed',
    '',
    ...(result.unobserved.length === 0 ? ['None.'] : result.unobserved.map((u) => `- \`${u.field}\` (${u.row}): not shown by ${u.on.join(' and ')} in this run`)),
    '',
    '## Meaningless differences',
    '',
    'The contract makes these differences meaningless: ids, which pets, messages.',
    '',
    ...(result.meaningless.length === 0 ? ['None.'] : ['| What | ' + result.base.label + ' | ' + result.against.label + ' |', '|---|---|---|', ...result.meaningless.map((m) => `| ${m.what} | ${shownOr(m.base.slice(0, 200))} | ${shownOr(m.against.slice(0, 200))} |`)]),
    '',
  ];
  return out.join('\n');
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p>None.</p>';
  return `<table><thead><tr>${head.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

export function driftHtml(result: DriftResult): string {
  const a = result.base.label;
  const b = result.against.label;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Drift: ${escape(a)} against ${escape(b)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:75rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:1rem;white-space:pre-wrap}.kept{color:#065f46}.broken,.cannot-judge{color:#991b1b}</style></head>
<body>
<h1>Drift: ${escape(a)} against ${escape(b)}</h1>
<p class="${result.verdict}"><strong>${escape(verdictWords[result.verdict])}</strong> (exit ${result.exitCode})${result.reason ? `: ${escape(result.reason)}` : ''}</p>
<pre>${escape(driftSummary(result))}</pre>
<h2>Contract breaks</h2>
${table(['Side', 'Check / rule', 'Exchange', 'Finding', 'The contract'], result.breaks.map((x) => [x.side, `${x.check} / ${x.rule}`, x.exchange ? `${x.exchange.method} ${x.exchange.path} (${x.exchange.status})` : '', x.message, x.quote]))}
<h2>Open choices made differently</h2>
${table(['Choice', 'contract-choices.md row', a, b, 'Shown by', 'The mock'], result.choices.map((c) => [`${c.title} (${c.field})`, c.row, c.base.shown, c.against.shown, shownBy(c), c.mockCannotMake ? `cannot make this choice: ${c.mockCannotMake}` : 'can make it (--profile)']))}
<h2>Choices the mock cannot make</h2>
${table(['Choice', 'Why'], result.cannotMake.map((c) => [c.field, c.reason]))}
<h2>Made alike</h2>
${table(['Choice', 'Both'], result.same.map((s) => [s.field, s.shown]))}
<h2>Not observed</h2>
${table(['Choice', 'Row', 'Not shown by'], result.unobserved.map((u) => [u.field, u.row, u.on.join(', ')]))}
<h2>Meaningless differences</h2>
${table(['What', a, b], result.meaningless.map((m) => [m.what, m.base.slice(0, 200), m.against.slice(0, 200)]))}
</body></html>
`;
}
