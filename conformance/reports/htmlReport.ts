import type { Finding, Inconclusive } from '../check.ts';
import { partialRunLine } from '../unchecked.ts';
import type { CheckReport, RunReport } from '../runReport.ts';
import { findingLine, headerLines } from './testCases.ts';
import { accountingNote, coverageHeadline, coverageLines } from './coverageTable.ts';
import { usageHtml } from './usageSection.ts';

/** Every text goes into the page through this, once: nothing is escaped twice. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const order = { failed: 0, passed: 1, skipped: 2 } as const;
const severityRank = { critical: 0, high: 1, medium: 2, low: 3 } as const;
const verdictWords = { passed: 'passed', failed: 'failed', 'cannot-run': 'could not run' } as const;
const failuresOf = (c: CheckReport) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure'));
const warned = (c: CheckReport) => c.operations.some((o) => o.findings.some((f) => f.level === 'warning'));

function finding(f: Finding, open: boolean): string {
  const e = f.evidence;
  const evidence = e
    ? `<details${open ? ' open' : ''}><summary>Evidence: ${escape(`${e.request.method} ${e.request.url}`)} → ${e.response.status}</summary>
<p class="label">Reproduce</p><pre class="curl">${escape(e.curl)}</pre>
<p class="label">Request</p><pre>${escape(`${e.request.method} ${e.request.url}\n${headerLines(e.request.headers)}${e.request.body !== undefined ? `\n\n${e.request.body}` : ''}`)}</pre>
<p class="label">Response ${e.response.status}</p><pre>${escape(`${headerLines(e.response.headers)}\n\n${e.response.bodyExcerpt}`)}</pre>
</details>`
    : '';
  const caseName = f.case !== undefined ? `<code class="case">${escape(f.case)}</code> ` : '';
  return `<li class="finding ${f.level}"><p><span class="tag">${f.level}</span> ${caseName}${escape(f.message)}${f.occurrences > 1 ? ` <em>(${f.occurrences} times)</em>` : ''}</p>${evidence}</li>`;
}

function check(c: CheckReport): string {
  // Only the first piece of evidence of a check is open: enough to see the problem, short enough to scan.
  let opened = false;
  const ops = c.operations.map((o) => {
    const findings = o.findings.map((f) => {
      const open = !opened && f.evidence !== undefined;
      if (open) opened = true;
      return finding(f, open);
    }).join('');
    // An inconclusive case is a skipped test in JUnit and CTRF: shown as skipped here too, with why.
    const unjudged = (o.inconclusive ?? []).map((i: Inconclusive) => `<li class="finding inconclusive"><p><span class="tag">skipped</span> ${i.case !== undefined ? `<code class="case">${escape(i.case)}</code> ` : ''}could not judge: ${escape(i.reason)}</p></li>`).join('');
    const items = findings + unjudged;
    return `<li><strong>${escape(o.operationId)}</strong>: <span class="st ${o.status}">${o.status}</span>${o.reason ? ` ${escape(o.reason)}` : ''}${items ? `<ul>${items}</ul>` : ''}</li>`;
  }).join('');
  return `<section class="check ${c.status}${warned(c) ? ' warned' : ''}" id="check-${escape(c.id)}" data-check="${escape(c.id)}" data-status="${c.status}">
<h2><span class="st ${c.status}">${c.status}</span> <code>${escape(c.id)}</code> ${escape(c.title)} <small>${c.severity}</small></h2>
<p class="desc">${escape(c.description)}</p><ul class="ops">${ops}</ul></section>`;
}

function failedTable(checks: CheckReport[]): string {
  // Most severe first; a stable sort keeps the run's order within a severity.
  const failed = checks.filter((c) => c.status === 'failed').sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
  if (failed.length === 0) return '';
  const rows = failed.map((c) => {
    const first = failuresOf(c)[0];
    const ops = c.operations.filter((o) => o.status === 'failed').map((o) => o.operationId).join(', ');
    const more = failuresOf(c).length > 1 ? ` <em>+${failuresOf(c).length - 1} more</em>` : '';
    return `<tr data-check="${escape(c.id)}"><td><a href="#check-${escape(c.id)}"><code>${escape(c.id)}</code></a></td><td class="sev ${c.severity}">${c.severity}</td><td>${escape(ops)}</td><td><span class="first" title="${escape(first ? findingLine(first) : '')}">${escape(first ? findingLine(first) : '')}</span>${more}</td></tr>`;
  }).join('\n');
  return `<table class="failed-checks"><caption>Failed checks</caption><thead><tr><th>Check</th><th>Severity</th><th>Operations</th><th>First finding</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

function filter(checks: CheckReport[]): string {
  const count = { failed: checks.filter((c) => c.status === 'failed').length, warned: checks.filter(warned).length, skipped: checks.filter((c) => c.status === 'skipped').length, all: checks.length };
  const choice = (id: keyof typeof count, label: string) => `<label><input type="radio" name="show" id="show-${id}"${id === 'all' ? ' checked' : ''}> ${label} (${count[id]})</label>`;
  return `<fieldset class="filter"><legend>Show</legend>${choice('failed', 'failed')}${choice('warned', 'with warnings')}${choice('skipped', 'skipped')}${choice('all', 'all')}</fieldset>`;
}

function requests(report: RunReport): string {
  if (report.exchanges.length === 0) return '';
  const rows = report.exchanges.map((e) => `<tr><td>${e.seq}</td><td>${escape(e.check)}${e.case !== undefined ? ` <code class="case">${escape(e.case)}</code>` : ''}</td><td><code>${escape(`${e.method} ${e.url}`)}</code></td><td>${e.status}${e.retries ? ` (after ${e.retries} tries with no answer)` : ''}</td><td>${e.ms} ms</td></tr>`).join('\n');
  return `<details class="requests"><summary>Every request of the run (${report.exchanges.length}); the full exchanges are in conformance.har</summary><table><thead><tr><th>#</th><th>Check and case</th><th>Request</th><th>Status</th><th>Time</th></tr></thead><tbody>
${rows}
</tbody></table></details>`;
}

/**
 * One self-contained page a person opens in a browser. The first screen answers "did it pass, and
 * what failed": verdict, target, counts and a table of the failed checks linking to their sections.
 * Below, the checks (failures first) with the first evidence of each open; a filter (CSS only, no
 * script) shows failed, warned, skipped or all.
 */
function reproductions(report: RunReport): string {
  const list = report.reproductions ?? [];
  if (list.length === 0) return '';
  return `<section class="reproductions"><h2>Shortest failing sequences</h2>${list
    .map((r) => `<details open><summary>Breaks ${r.rules.map(escape).join(', ')}: ${r.requests.shrunk} requests (shrunk from ${r.requests.original})</summary><pre>${escape(r.curl)}</pre></details>`)
    .join('')}</section>`;
}

function coverage(report: RunReport): string {
  const lines = coverageLines(report);
  if (lines.length === 0) return '';
  return `<section class="coverage"><h2>What the run verified: ${escape(coverageHeadline(report))}</h2><p class="desc">${escape(accountingNote(report))}</p><table><thead><tr><th>Rule</th><th>Check</th><th>Result</th><th>Judged on (answers)</th><th>Not reached because</th></tr></thead><tbody>${lines
    .map((l) => `<tr class="${l.status.replace(' ', '-')}"><td><code>${escape(l.rule)}</code> ${escape(l.title)}</td><td><code>${escape(l.check)}</code></td><td>${escape(l.status)}</td><td>${escape(l.judged || '—')}</td><td>${escape(l.reason ?? '')}</td></tr>`)
    .join('')}</tbody></table></section>`;
}

export function htmlReport(report: RunReport): string {
  const { passed, failed, skipped, warnings } = report.summary;
  const words = verdictWords[report.verdict];
  const sorted = [...report.checks].sort((a, b) => order[a.status] - order[b.status]);
  const cannotRun = report.verdict === 'cannot-run'
    ? `<p class="cannot-run-reason" role="alert"><strong>Could not judge ${escape(report.baseUrl)}:</strong> ${escape(report.reason ?? 'unknown reason')}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance ${words}: ${escape(report.baseUrl)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:1rem auto;max-width:76rem;padding:0 1rem;color:#1a1a1a}
header{border-left:8px solid #9e9e9e;padding:.3rem 1rem;margin-bottom:.6rem}
header.failed{border-color:#c62828}header.passed{border-color:#2e7d32}header.cannot-run{border-color:#ef6c00}
h1{margin:0;font-size:1.5rem}.meta{color:#555;margin:.2rem 0;overflow-wrap:anywhere}.counts{margin:.2rem 0}.counts span{margin-right:1rem;font-weight:600}
.cannot-run-reason{background:#fff3e0;border:1px solid #ef6c00;padding:.5rem 1rem;border-radius:6px}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e0e0e0;vertical-align:top}
caption{text-align:left;font-weight:700;padding:.3rem 0}
.failed-checks td:first-child{white-space:nowrap}.failed-checks .first{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.sev.critical{color:#b71c1c;font-weight:700}.sev.high{color:#c62828}
.filter{border:none;padding:0;margin:.8rem 0}.filter legend{font-weight:600;float:left;margin-right:.6rem}.filter label{margin-right:1rem}
body:has(#show-failed:checked) section.check:not(.failed),body:has(#show-warned:checked) section.check:not(.warned),body:has(#show-skipped:checked) section.check:not(.skipped){display:none}
.check{border:1px solid #ddd;border-left-width:6px;border-radius:6px;margin:.8rem 0;padding:.3rem 1rem}
.check.failed{border-left-color:#c62828}.check.passed{border-left-color:#2e7d32}.check.skipped{border-left-color:#9e9e9e}
.st{font-size:.8em;text-transform:uppercase;padding:.1em .4em;border-radius:4px;color:#fff}
.st.failed{background:#c62828}.st.passed{background:#2e7d32}.st.skipped{background:#757575}
h2{font-size:1.05rem;margin:.4rem 0}h2 small{color:#777;font-weight:normal}.desc{color:#444;margin:.2rem 0}
pre{background:#f5f5f5;padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:13px;margin:.2rem 0}
summary{cursor:pointer;color:#333}.finding p{margin:.3rem 0}
.finding.failure .tag{color:#c62828;font-weight:700}.finding.warning .tag{color:#ef6c00;font-weight:700}.finding.inconclusive .tag{color:#616161;font-weight:700}code.case{font-size:.85em;background:#f1f1f1;padding:0 .2rem}.label{margin:.3rem 0 0;font-weight:600}
</style></head><body>
${usageHtml(report)}<header class="${report.verdict}">
<h1>Pet Adoption API conformance: ${words}</h1>
<p class="meta">${escape(report.baseUrl)} · run ${escape(report.runId)} · ${escape(report.startedAt)} · ${report.requests.total} requests · ${(report.durationMs / 1000).toFixed(1)} s · ${escape(report.tool.name)} ${escape(report.tool.version)}</p>
${report.checks.length === 0 ? '' : `<p class="counts"><span>${passed} passed</span><span>${failed} failed</span><span>${skipped} skipped</span><span>${warnings} warnings</span></p>`}
</header>
${cannotRun}${partialRunLine(report) !== undefined ? `<p class="cannot-run-reason" role="note"><strong>${escape(partialRunLine(report)!)}</strong></p>` : ''}
${failedTable(sorted)}
${sorted.length > 0 ? filter(sorted) : ''}
${sorted.map(check).join('\n')}
${reproductions(report)}
${coverage(report)}
${report.notes.length > 0 ? `<h2>Notes</h2><ul class="notes">${report.notes.map((n) => `<li>${escape(n)}</li>`).join('')}</ul>` : ''}
${requests(report)}
</body></html>
`;
}
