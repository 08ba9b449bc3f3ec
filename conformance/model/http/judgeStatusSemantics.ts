// What a status code says of the answer: a final code in 100-599 (RFC 9110, 15), no content on
// 204, 304 or HEAD (9.3.2, 15.3.5, 15.4.5), and a 405's Allow true to the path (15.5.6).
import { broken, held, holds, questionable, type Judgement } from '../judgement.ts';
import { viewRequest } from '../requestView.ts';
import type { Answer } from './answerFields.ts';
import { isToken, listMembers } from './fieldSyntax.ts';
import type { HttpMemory } from './httpMemory.ts';

function judgeStatusCode(answer: Answer): Judgement {
  const { status } = answer;
  if (status < 100 || status > 599) return broken('http.status-code', answer.op, answer.exchange, `${answer.where}: ${status} is no HTTP status; valid codes are 100 to 599 (RFC 9110, 15), and a client cannot tell what it means.`);
  return holds(status >= 200, 'http.status-code', answer.op, answer.exchange, () => `${answer.where}: a ${status} came as the final answer; a 1xx is interim, and a final answer must follow it (RFC 9110, 15.2).`);
}

function judgeNoContent(answer: Answer): Judgement[] {
  const { status, view, exchange } = answer;
  const why = view.method === 'HEAD' ? 'an answer to HEAD' : status === 204 ? 'a 204' : status === 304 ? 'a 304' : undefined;
  if (why === undefined) return [];
  const size = exchange.response.bytes.length;
  return [holds(size === 0 && !exchange.response.truncated, 'http.no-content', answer.op, exchange, () => `${answer.where} carries ${size} octets of content; ${why} has none (RFC 9110, ${view.method === 'HEAD' ? '9.3.2' : status === 204 ? '15.3.5' : '15.4.5'}), and on a kept-alive connection they are read as the start of the next answer.`)];
}

/** Whether `method` on `path` is one of the contract's operations. */
const documented = (method: string, path: string) => viewRequest({ path, request: { method, url: '', headers: {} } }).operation !== undefined;

function judge405(answer: Answer, memory: HttpMemory): Judgement[] {
  if (answer.status !== 405) return [];
  const { exchange, where, view } = answer;
  const value = answer.field('allow');
  if (value === undefined) return [broken('http.405-allow', answer.op, exchange, `${where} refuses ${view.method} with 405 and no Allow; the origin server must list the methods the resource supports (RFC 9110, 15.5.6), so a client knows what to send instead.`)];
  const members = value.trim() === '' ? [] : (listMembers(value) ?? []).filter(isToken);
  const listed = new Set(members);
  const out: Judgement[] = [];
  if (listed.has(view.method)) out.push(broken('http.405-allow', answer.op, exchange, `${where} refuses ${view.method} with 405 yet lists it in Allow ${JSON.stringify(value)}; a 405 says the method is not supported, and Allow lists those that are (RFC 9110, 15.5.6).`));
  const served = memory.served.get(view.pathname) ?? new Map<string, number>();
  // HEAD is GET without content (9.3.2): a list with GET covers it.
  const missing = [...served].filter(([method]) => !listed.has(method) && !(method === 'HEAD' && listed.has('GET')));
  for (const [method, seq] of missing) {
    const message = `${where} lists Allow ${JSON.stringify(value)} without ${method}, which #${seq} was served on ${view.pathname}; Allow lists the resource's currently supported methods (RFC 9110, 15.5.6).`;
    // The contract's own operations are supported for good; another method a deployment may withdraw.
    out.push(documented(method, view.pathname) ? broken('http.405-allow', answer.op, exchange, message, [seq]) : questionable('http.405-allow', answer.op, exchange, message));
  }
  if (out.length === 0) out.push(held('http.405-allow', answer.op, exchange));
  return out;
}

export function judgeStatusSemantics(answer: Answer, memory: HttpMemory): Judgement[] {
  return [judgeStatusCode(answer), ...judgeNoContent(answer), ...judge405(answer, memory)];
}
