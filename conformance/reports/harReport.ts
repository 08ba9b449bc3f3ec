import type { Entry, Har, Header, QueryString } from 'har-format';
import { partialRunLine } from '../unchecked.ts';
import type { CapturedBody, ExchangeSummary, RunReport, UnansweredSummary } from '../runReport.ts';

const headerList = (headers: Record<string, string>): Header[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): QueryString[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** A cut body says so in the text (and in `_truncated`), so nobody mistakes it for the whole. */
const bodyText = (body: CapturedBody) => (body.truncated ? `${body.text}… [cut: ${body.size} bytes in all]` : body.text);
const cutNote = (body: CapturedBody) => (body.truncated ? { comment: `Body cut after ${body.text.length} characters of ${body.size} bytes.` } : {});

/** The request as sent, answered or not. */
function harRequest(r: Pick<ExchangeSummary, 'method' | 'url' | 'requestHeaders' | 'requestBody'>): Entry['request'] {
  return {
    method: r.method,
    url: r.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerList(r.requestHeaders),
    queryString: queryOf(r.url),
    ...(r.requestBody ? { postData: { mimeType: r.requestHeaders['content-type'] ?? 'application/json', text: bodyText(r.requestBody), ...cutNote(r.requestBody) } } : {}),
    headersSize: -1,
    bodySize: r.requestBody?.size ?? 0,
  };
}

function entry(e: ExchangeSummary): Entry {
  const responseType = e.responseHeaders['content-type'] ?? '';
  return {
    pageref: 'run',
    startedDateTime: e.sentAt,
    time: e.ms,
    request: { ...harRequest(e), ...(e.wire ? { httpVersion: `HTTP/${e.wire.version}` } : {}) },
    response: {
      status: e.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(e.responseHeaders),
      content: { size: e.responseBody.size, mimeType: responseType, text: bodyText(e.responseBody), ...(e.bodyCut !== undefined ? { comment: `The run held only the start of this body (${e.bodyCut}).` } : cutNote(e.responseBody)) },
      redirectURL: e.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: e.responseBody.size,
    },
    cache: {},
    // The transport reports one figure: the whole exchange, counted as waiting for the answer.
    timings: { send: 0, wait: e.ms, receive: 0 },
    ...(e.retries ? { comment: `Answered on try ${e.retries + 1}: the ${e.retries} before got no answer (status 0 entries) and the GET was sent again.` } : {}),
    _check: e.check,
    _operationId: e.operationId,
    ...(e.case !== undefined ? { _case: e.case } : {}),
    _intent: e.intent,
    _seq: e.seq,
    ...(e.bodyCut !== undefined ? { _bodyCut: e.bodyCut } : {}),
    // The framing probe's: which raw connection, and the answer's head byte for byte.
    ...(e.wire ? { _wire: e.wire } : {}),
    ...(e.retries ? { _retries: e.retries } : {}),
  };
}

/** A request without an answer, as browsers export one: status 0, and why in `_error` and the response's comment. */
function unansweredEntry(u: UnansweredSummary): Entry {
  return {
    pageref: 'run',
    startedDateTime: u.sentAt,
    time: u.ms,
    request: harRequest(u),
    response: { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: -1, bodySize: -1, comment: `No answer: ${u.error}` },
    cache: {},
    timings: { send: 0, wait: u.ms, receive: 0 },
    _error: u.error,
    _check: u.check,
    _operationId: u.operationId,
    ...(u.case !== undefined ? { _case: u.case } : {}),
  };
}

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) of every exchange the run recorded, to
 * open in browser devtools: headers and bodies as the reports keep them (the key shown as
 * `$PETS_API_KEY`, bodies cut past `capturedBodyLimit`). Custom fields start with `_` as HAR allows.
 */
export function harReport(report: RunReport): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: report.tool.name, version: report.tool.version },
      pages: [{
        id: 'run',
        startedDateTime: report.startedAt,
        title: `${report.tool.name} ${report.verdict} against ${report.baseUrl} (run ${report.runId})`,
        pageTimings: {},
      }],
      // In the order the requests left; tries that got no answer (status 0) among them, each just
      // before the answered request that followed it (a retried GET's answer, or the next request).
      entries: [
        ...report.exchanges.map((e) => ({ order: e.seq, entry: entry(e) })),
        ...(report.unanswered ?? []).map((u) => ({ order: u.afterSeq + 0.5, entry: unansweredEntry(u) })),
      ].sort((a, b) => a.order - b.order).map((x) => x.entry),
      comment: report.reason !== undefined ? `Could not judge: ${report.reason}` : `Verdict: ${report.verdict}${partialRunLine(report) !== undefined ? `. ${partialRunLine(report)}` : ''}`,
    },
  };
}
