import type { Finding } from '../check.ts';
import type { CheckReport, RunReport } from '../runReport.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const order = { failed: 0, passed: 1, skipped: 2 } as const;

function headers(values: Record<string, string>): string {
  return Object.entries(values).map(([k, v]) => `${escape(k)}: ${escape(v)}`).join('\n');
}

function finding(f: Finding): string {
  const evidence = f.evidence
    ? `<details open><summary>Evidence</summary>
<p class="label">Reproduce</p><pre class="curl">${escape(f.evidence.curl)}</pre>
<p class="label">Request</p><pre>${escape(`${f.evidence.request.method} ${f.evidence.request.url}\n${headers(f.evidence.request.headers)}${f.evidence.request.body !== undefined ? `\n\n${f.evidence.request.body}` : ''}`)}</pre>
<p class="label">Response ${f.evidence.response.status}</p><pre>${escape(`${headers(f.evidence.response.headers)}\n\n${f.evidence.response.bodyExcerpt}`)}</pre>
</details>`
    : '';
  return `<li class="finding ${f.level}"><p><span class="tag">${f.level}</span> ${escape(f.message)}${f.occurrences > 1 ? ` <em>(${f.occurrences} times)</em>` : ''}</p>${evidence}</li>`;
}

function check(c: CheckReport): string {
  const ops = c.operations.map((o) => `<li><strong>${escape(o.operationId)}</strong>: <span class="st ${o.status}">${o.status}</span>${o.reason ? `: ${escape(o.reason)}` : ''}${o.findings.length > 0 ? `<ul>${o.findings.map(finding).join('')}</ul>` : ''}</li>`).join('');
  return `<section class="check ${c.status}" id="check-${escape(c.id)}" data-check="${escape(c.id)}" data-status="${c.status}">
<h2><span class="st ${c.status}">${c.status}</span> <code>${escape(c.id)}</code> ${escape(c.title)} <small>${c.severity}</small></h2>
<p class="desc">${escape(c.description)}</p><ul class="ops">${ops}</ul></section>`;
}

/** One self-contained page a person opens in a browser: failures first, with evidence and curl. */
export function htmlReport(report: RunReport): string {
  const { passed, failed, skipped, warnings } = report.summary;
  const sorted = [...report.checks].sort((a, b) => order[a.status] - order[b.status]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance ${failed > 0 ? 'failed' : 'passed'}: ${escape(report.baseUrl)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1a1a1a}
h1{margin-bottom:.2rem}.meta{color:#555}.summary span{margin-right:1rem;font-weight:600}
.check{border:1px solid #ddd;border-left-width:6px;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.check.failed{border-left-color:#c62828}.check.passed{border-left-color:#2e7d32}.check.skipped{border-left-color:#9e9e9e}
.st{font-size:.8em;text-transform:uppercase;padding:.1em .4em;border-radius:4px;color:#fff}
.st.failed{background:#c62828}.st.passed{background:#2e7d32}.st.skipped{background:#757575}
h2{font-size:1.1rem}h2 small{color:#777;font-weight:normal}.desc{color:#444}
pre{background:#f5f5f5;padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:13px}
.finding.failure .tag{color:#c62828;font-weight:700}.finding.warning .tag{color:#ef6c00;font-weight:700}.label{margin:.3rem 0 0;font-weight:600}
</style></head><body>
<h1>Pet Adoption API conformance: ${failed > 0 ? 'failed' : 'passed'}</h1>
<p class="meta">${escape(report.baseUrl)} · run ${escape(report.runId)} · ${escape(report.startedAt)} · ${report.requests.total} requests · ${(report.durationMs / 1000).toFixed(1)} s · ${escape(report.tool.name)} ${escape(report.tool.version)}</p>
<p class="summary"><span>${passed} passed</span><span>${failed} failed</span><span>${skipped} skipped</span><span>${warnings} warnings</span></p>
${report.notes.length > 0 ? `<ul class="notes">${report.notes.map((n) => `<li>${escape(n)}</li>`).join('')}</ul>` : ''}
${sorted.map(check).join('\n')}
</body></html>
`;
}
