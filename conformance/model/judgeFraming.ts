// HTTP/1.x framing judged from the bytes of a raw connection (RFC 9112): where each answer ends, that
// nothing is left behind or swallowed, that a HEAD answer has no body, that HTTP/1.0 gets no chunked,
// that a close asked for is made, that pipelined answers come in order. Only exchanges the framing
// probe sent on raw connections carry those bytes; node:http hides them.
import type { Exchange, WireConnection } from '../http/exchange.ts';
import { showBytes } from '../http/messageHead.ts';
import type { FramedAnswer, FramingProblem } from '../http/responseFraming.ts';
import { frameWire } from '../http/wireExchanges.ts';
import { integerText, parseLossless, type LosslessValue } from '../../common/json/losslessJson.ts';
import { broken, held, questionable, type Judgement } from './judgement.ts';
import type { RequestView } from './requestView.ts';
import type { RuleId } from './rules.ts';

/** Which rule each way of breaking the framing breaks. */
const ruleOf: Record<FramingProblem['kind'], RuleId> = {
  'status-line': 'framing.message-syntax',
  'bare-lf': 'framing.message-syntax',
  'obs-fold': 'framing.message-syntax',
  'space-before-colon': 'framing.message-syntax',
  'field-syntax': 'framing.message-syntax',
  'field-value': 'framing.message-syntax',
  'head-too-long': 'framing.message-syntax',
  'length-and-chunked': 'framing.one-length',
  'length-invalid': 'framing.one-length',
  'coding-to-1.0': 'framing.no-chunked-to-1.0',
  'length-short': 'framing.length-exact',
  'length-long': 'framing.length-exact',
  'length-unmet': 'framing.length-exact',
  'chunk-syntax': 'framing.chunked-valid',
  'after-chunked': 'framing.chunked-valid',
  'chunk-unfinished': 'framing.chunked-valid',
  'head-body': 'framing.head-no-body',
  'no-body-body': 'framing.connection-reusable',
  unsolicited: 'framing.connection-reusable',
  'stray-crlf': 'framing.connection-reusable',
};

/** Tolerated by most clients (RFC 9112, 2.2: a recipient MAY read a bare LF as a line end): a warning. */
const tolerated = new Set<FramingProblem['kind']>(['bare-lf', 'stray-crlf']);

const statusOf = (answer: FramedAnswer | undefined) => answer?.head.status ?? 0;

/** The id a pet answer names, by its digits; undefined when the body is no Pet. */
function petId(body: Uint8Array): string | undefined | 'list' {
  try {
    const value: LosslessValue = parseLossless(Buffer.from(body).toString('utf8'));
    if (Array.isArray(value)) return 'list';
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? integerText(value.id) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a 200 answer's body is what its request asked for: a list for a list, the pet asked for by id. Undefined: cannot tell. */
function fits(target: string, answer: FramedAnswer): boolean | undefined {
  if (answer.head.status !== 200) return undefined;
  const path = target.split('?')[0]!;
  const got = petId(answer.body);
  if (got === undefined) return undefined;
  const byId = /\/pets\/([^/]+)$/.exec(path);
  if (byId) return got !== 'list' && got === decodeURIComponent(byId[1]!);
  if (/\/pets$/.test(path)) return got === 'list';
  return undefined;
}

export function judgeFraming(exchange: Exchange, view: RequestView): Judgement[] {
  const wire = exchange.wire;
  if (!wire) return [];
  const op = view.operation ?? 'unlisted';
  const { connection, index } = wire;
  // A connection's bytes are a few hundred: framed again for each of its exchanges.
  const framed = frameWire(connection);
  const answer = framed.answers[index];
  if (!answer) return [];
  const request = connection.requests[index]!;
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${answer.head.status}, HTTP/${request.version}, answer ${index + 1} on raw connection ${connection.id}${connection.pipelined ? ', pipelined' : ''})`;
  const out: Judgement[] = [];
  const fail = (rule: RuleId, message: string) => out.push(broken(rule, op, exchange, `${where}: ${message}`));

  // Every problem the bytes show, under its rule.
  const seen = new Set<RuleId>();
  for (const problem of answer.problems) {
    const rule = ruleOf[problem.kind];
    seen.add(rule);
    if (tolerated.has(problem.kind)) out.push(questionable(rule, op, exchange, `${where}: ${problem.detail}; most clients read it, but RFC 9112 (2.2) has lines end in CRLF.`));
    else fail(rule, `${problem.detail}.${advice[rule] ?? ''}`);
  }
  const holds = (rule: RuleId, applies: boolean) => {
    if (applies && !seen.has(rule)) out.push(held(rule, op, exchange));
  };
  const finished = answer.end !== undefined;
  holds('framing.message-syntax', answer.head.end > answer.head.start);
  holds('framing.one-length', finished && (answer.framing === 'content-length' || answer.framing === 'chunked'));
  holds('framing.length-exact', finished && answer.framing === 'content-length');
  holds('framing.chunked-valid', finished && answer.framing === 'chunked');
  holds('framing.head-no-body', finished && request.method.toUpperCase() === 'HEAD');
  holds('framing.no-chunked-to-1.0', request.version === '1.0');

  const next = framed.answers[index + 1];
  const nextRequest = connection.requests[index + 1];
  const lastWritten = connection.requests.filter((r) => r.writtenAt !== undefined).length - 1;

  // The close a request asked for, or the answer announced, is made (RFC 9112, 9.6; HTTP/1.0, 9.3).
  if (finished && (request.close || answer.closes) && index === lastWritten) {
    if (connection.ended === 'closed') out.push(held('framing.close-honoured', op, exchange));
    else if (connection.ended === 'timeout') {
      const why = request.close && request.version === '1.1' ? 'it was sent with Connection: close' : answer.closes && fieldSaysClose(answer) ? 'it said Connection: close' : 'it answers HTTP/1.0 without keep-alive';
      const message = `${where}: ${why}, yet the connection was still open ${connection.timeoutMs} ms after the answer.`;
      // A 1.1 close asked for or announced is a MUST (RFC 9112, 9.6); HTTP/1.0's default close is the protocol's, not a MUST.
      if (request.close && request.version === '1.1') fail('framing.close-honoured', `${why}, yet the connection was still open ${connection.timeoutMs} ms after the answer: a server MUST close after the answer to a request with Connection: close (RFC 9112, 9.6).`);
      else if (fieldSaysClose(answer)) fail('framing.close-honoured', `${why}, yet the connection was still open ${connection.timeoutMs} ms after it: a server that sends close MUST close (RFC 9112, 9.6).`);
      else out.push(questionable('framing.close-honoured', op, exchange, `${message} A 1.0 client without keep-alive expects the close (RFC 9112, 9.3).`));
    }
  }

  // The kept-alive connection carries the next request: its answer starts where this one ends.
  if (finished && !answer.closes && !request.close && nextRequest?.writtenAt !== undefined) {
    if (next) {
      if (!seen.has('framing.connection-reusable') && !seen.has('framing.length-exact') && !seen.has('framing.chunked-valid') && !seen.has('framing.head-no-body')) out.push(held('framing.connection-reusable', op, exchange));
    } else if (connection.ended === 'timeout' && !framed.unframable && !connection.pipelined) {
      fail('framing.connection-reusable', `after this answer the next request (${nextRequest.target}) was sent on the same kept-alive connection and got no answer within ${connection.timeoutMs} ms, the connection left open.${advice['framing.connection-reusable'] ?? ''}`);
    }
  }

  // Pipelined requests are each answered, in the order sent (RFC 9112, 9.3.2).
  if (connection.pipelined) {
    const fit = fits(request.target, answer);
    if (fit === false) fail('framing.pipelined-in-order', `it answers request ${index + 1} of the pipeline (${request.target}) with a body that is not its answer (${JSON.stringify(Buffer.from(answer.body.subarray(0, 60)).toString('utf8'))}): answers must come in the order the requests were sent.`);
    else if (finished && index === framed.answers.length - 1 && index < lastWritten && connection.ended === 'timeout' && !framed.unframable) {
      const waiting = connection.requests.slice(index + 1).map((r) => r.target);
      fail('framing.pipelined-in-order', `it is the last answer: the ${waiting.length} requests pipelined after it (${waiting.join(', ')}) got none within ${connection.timeoutMs} ms, the connection left open. Each pipelined request must be answered, in order (RFC 9112, 9.3.2).`);
    } else if (framed.answers.length >= 2) {
      // Judged only where two answers or more came: one answer and a close says nothing of pipelining.
      out.push(held('framing.pipelined-in-order', op, exchange));
    }
  }

  // A body sent in chunks, or split across writes, is read whole: the same NewPet as one sent at once.
  if (request.bodyAs === 'split' || request.bodyAs === 'chunked') {
    const status = statusOf(answer);
    const how = request.bodyAs === 'split' ? 'its body in two writes, cut inside a UTF-8 character' : 'its body chunked (RFC 9112, 7.1)';
    if (status >= 200 && status < 300) out.push(held('framing.body-read-whole', op, exchange));
    else if (request.bodyAs === 'chunked' && status === 411) out.push(held('framing.body-read-whole', op, exchange));
    else if (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429) {
      fail('framing.body-read-whole', `a valid NewPet sent with ${how} was refused ${status}: the server read the body as something else than was sent. A recipient MUST be able to parse chunked, and segments are no part of HTTP's message (RFC 9112, 6.2, 7.1).${request.bodyAs === 'chunked' ? ' (411 Length Required would be a legal refusal, RFC 9112, 6.3.)' : ''}`);
    }
  }
  return out;
}

const fieldSaysClose = (answer: FramedAnswer) => answer.head.fields.some(([name, value]) => name.toLowerCase() === 'connection' && /(^|,)\s*close\s*(,|$)/i.test(value));

/** What each failure costs a client, said once after its bytes. */
const advice: Partial<Record<RuleId, string>> = {
  'framing.message-syntax': ' Clients refuse or misread such a head (node\'s parser refuses it).',
  'framing.one-length': ' A client cannot know where the body ends; node\'s parser refuses it, and a proxy may read it otherwise (request smuggling, RFC 9112, 6.3).',
  'framing.length-exact': ' On a kept-alive connection what is left over corrupts the next answer, or the client waits for bytes that never come.',
  'framing.chunked-valid': ' A client cannot find the body\'s end.',
  'framing.head-no-body': ' A client reads those bytes as the start of the next answer, which it then cannot parse (RFC 9110, 9.3.2; RFC 9112, 6.3).',
  'framing.no-chunked-to-1.0': ' A server MUST NOT send Transfer-Encoding to an HTTP/1.0 request (RFC 9112, 6.1).',
  'framing.connection-reusable': ' A client that reuses the connection, as HTTP/1.1 clients do (RFC 9112, 9.3), reads the wrong answer or none.',
};

/**
 * A raw connection whose first bytes start no answer: the deployment's, and no exchange holds them,
 * so the judgement names the connection, not an answer.
 */
export function judgeUnframable(connections: readonly WireConnection[]): Judgement[] {
  return connections.flatMap((connection): Judgement[] => {
    const framed = frameWire(connection);
    if (framed.answers.length > 0 || !framed.unframable) return [];
    const { at } = framed.unframable;
    const message = `Raw connection ${connection.id} (HTTP/${connection.requests[0]?.version}, ${connection.requests.map((r) => `${r.method} ${r.target}`).join(', ')}): the bytes that came (${showBytes(connection.received, at, connection.received.length)}) start no HTTP answer: no status line. A client cannot read it (RFC 9112, 4: a response begins with its status line).`;
    return [{ rule: 'framing.message-syntax', operationId: connection.operationId ?? 'unlisted', outcome: 'failure', message }];
  });
}
