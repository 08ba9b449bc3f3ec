// The fields that say what the content is and how it is framed: Content-Type (RFC 9110, 8.3),
// Content-Length (8.6), Transfer-Encoding with it (RFC 9112, 6.1-6.2) and Content-Encoding (8.4),
// the last held to what the request's Accept-Encoding accepted (12.5.3).
import { broken, held, holds, type Judgement } from '../judgement.ts';
import { sentTwice, type Answer } from './answerFields.ts';
import { acceptsCoding, parseAcceptEncoding, parseContentEncoding } from './contentCodings.ts';
import { parseMediaType } from './mediaType.ts';

/** Statuses that never have content, whatever the method (RFC 9110, 6.4.1). */
const noContentStatus = (status: number) => status === 204 || status === 304 || (status >= 100 && status < 200);

function judgeContentType(answer: Answer): Judgement[] {
  const value = answer.field('content-type');
  if (value === undefined) return [];
  const twice = sentTwice(answer, 'http.content-type', 'Content-Type');
  if (twice) return [twice];
  const parsed = parseMediaType(value);
  return [holds(!('fault' in parsed), 'http.content-type', answer.op, answer.exchange, () => `${answer.where} has Content-Type ${JSON.stringify(value)}: ${(parsed as { fault: string }).fault}. A client cannot tell what the body is; send "application/json" (RFC 9110, 8.3.1).`)];
}

function judgeContentLength(answer: Answer): Judgement[] {
  const values = answer.lines('content-length');
  if (values.length === 0) return [];
  const { exchange, where, status } = answer;
  if (status === 204 || (status >= 100 && status < 200)) {
    return [broken('http.content-length', answer.op, exchange, `${where} sends Content-Length ${values.join(', ')} on a ${status}; a server must not send Content-Length with 1xx or 204 (RFC 9110, 8.6). Drop it.`)];
  }
  if (values.length > 1 || !/^\d+$/.test(values[0]!)) {
    return [broken('http.content-length', answer.op, exchange, `${where} sends Content-Length ${values.map((v) => JSON.stringify(v)).join(', ')}; it is one decimal number (1*DIGIT, RFC 9110, 8.6), and a recipient that reads another framing than the sender meant desynchronises the connection (RFC 9112, 6.3). Send it once, as digits.`)];
  }
  const declared = Number(values[0]);
  const coding = answer.field('content-encoding');
  // The transport undoes a content coding: the octets sent are then not the octets kept.
  const asSent = coding === undefined || (parseContentEncoding(coding)?.every((c) => c === 'identity') ?? false);
  const readable = asSent && answer.view.method !== 'HEAD' && !noContentStatus(status) && !exchange.response.truncated && exchange.response.incomplete === undefined;
  if (!readable) return [held('http.content-length', answer.op, exchange)];
  const received = exchange.response.bytes.length;
  return [holds(declared === received, 'http.content-length', answer.op, exchange, () => `${where} says Content-Length ${declared} and sent ${received} octets of content; the length is the content's, in octets (RFC 9110, 8.6), and a client that trusts it reads ${declared < received ? 'too little and takes the rest for the next answer' : 'past the end and waits'}.`)];
}

function judgeFraming(answer: Answer): Judgement[] {
  const te = answer.field('transfer-encoding');
  if (te === undefined) return [];
  const { exchange, where, status } = answer;
  if (status === 204 || (status >= 100 && status < 200)) return [broken('http.framing', answer.op, exchange, `${where} sends Transfer-Encoding ${JSON.stringify(te)} on a ${status}, which has no content; a server must not (RFC 9112, 6.1).`)];
  const length = answer.field('content-length');
  return [holds(length === undefined, 'http.framing', answer.op, exchange, () => `${where} sends both Transfer-Encoding ${JSON.stringify(te)} and Content-Length ${JSON.stringify(length)}; a sender must not send Content-Length with Transfer-Encoding (RFC 9112, 6.2), since the two framings disagree and a proxy may read the other one (request smuggling). Send one.`)];
}

function judgeContentEncoding(answer: Answer): Judgement[] {
  const value = answer.field('content-encoding');
  if (value === undefined) return [];
  const { exchange, where } = answer;
  const codings = parseContentEncoding(value);
  if (!codings) return [broken('http.content-encoding', answer.op, exchange, `${where} has Content-Encoding ${JSON.stringify(value)}, which is not a list of coding tokens (RFC 9110, 8.4).`)];
  const asked = answer.view.headers['accept-encoding'];
  // No Accept-Encoding: any coding is acceptable (RFC 9110, 12.5.3).
  if (asked === undefined) return [held('http.content-encoding', answer.op, exchange)];
  const accept = parseAcceptEncoding(asked);
  if (!accept) return [held('http.content-encoding', answer.op, exchange)];
  const refused = codings.filter((c) => c !== 'identity' && !acceptsCoding(accept, c));
  return [holds(refused.length === 0, 'http.content-encoding', answer.op, exchange, () => `${where} is coded ${refused.join(', ')} (Content-Encoding ${JSON.stringify(value)}), but the request said Accept-Encoding ${JSON.stringify(asked)}, which does not accept ${refused.length > 1 ? 'them' : 'it'}: a client that cannot decode it cannot read the answer. Send it without that coding (RFC 9110, 12.5.3).`)];
}

export function judgeRepresentationFields(answer: Answer): Judgement[] {
  return [...judgeContentType(answer), ...judgeContentLength(answer), ...judgeFraming(answer), ...judgeContentEncoding(answer)];
}
