// Bodies judged as bytes, as a client in any language reads them: fetch and JSON.parse would hide
// a byte-order mark, a wrong charset and a header sent twice.
import type { Exchange } from '../http/exchange.ts';
import { held, holds, questionable, type Judgement } from './judgement.ts';
import type { RequestView } from './requestView.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import { maxDepth, nestsDeeperThan } from '../../common/json/losslessJson.ts';

const rateHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const isAscii = (bytes: Uint8Array) => bytes.every((b) => b < 0x80);

/** The charset parameter of a Content-Type, lower-cased, without quotes. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1]?.toLowerCase();
}

/** Where JSON.parse stops on text that holds one value and then more: the end of the first value. */
function secondValueAt(text: string): number | undefined {
  for (let end = text.length - 1; end > 0; end--) {
    const head = text.slice(0, end);
    if (!/[}\]"\d el]\s*$/.test(head)) continue;
    try {
      JSON.parse(head);
      return end;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

export function judgeWire(exchange: Exchange, view: RequestView): Judgement[] {
  // Unavailable is not broken: what a gateway says while the deployment is down is not judged.
  if (isUnavailable(exchange.response.status)) return [];
  const op = view.operation ?? 'unlisted';
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${exchange.response.status})`;
  const { response } = exchange;
  const out: Judgement[] = [];

  const lines = response.rawHeaders;
  if (lines) {
    const twice = rateHeaders.filter((name) => lines.filter(([n]) => n === name).length > 1);
    out.push(holds(twice.length === 0, 'wire.header-once', op, exchange, () => `${where} sends ${twice.map((n) => `${n} ${lines.filter(([h]) => h === n).length} times (${lines.filter(([h]) => h === n).map(([, v]) => JSON.stringify(v)).join(', ')})`).join('; ')}; a client reads one value.`));
  }
  if (response.incomplete !== undefined) {
    out.push({ rule: 'wire.readable', operationId: op, exchange, outcome: 'failure', message: `${where} sent its status and headers, then its body never finished (${response.incomplete}; ${response.bytes?.length ?? 0} bytes came); a client cannot read it.` });
    return out;
  }
  if (response.truncated) {
    out.push({ rule: 'wire.readable', operationId: op, exchange, outcome: 'failure', message: `${where} sent a body larger than the suite reads (${response.bytes?.length ?? response.body.length} bytes kept); no list of at most 100 pets comes near it.` });
    return out;
  }
  // The run's own budget for kept bodies cut this one: the deployment sent it whole, and the start
  // the suite kept says nothing of the rest. Not judged (the wire-format check says so).
  if (response.keptInPart !== undefined) return out;
  out.push(held('wire.readable', op, exchange));
  const bytes = response.bytes;
  if (!bytes || bytes.length === 0 || view.method === 'HEAD') return out;

  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  out.push(holds(!bom, 'wire.no-bom', op, exchange, () => `${where} starts its body with a byte-order mark (EF BB BF); JSON must not (RFC 8259, 8.1), and most JSON parsers outside the browser refuse it.`));
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
    out.push(held('wire.utf8', op, exchange));
  } catch {
    const at = bytes.findIndex((b) => b >= 0x80);
    out.push({ rule: 'wire.utf8', operationId: op, exchange, outcome: 'failure', message: `${where} has a body that is not UTF-8 (bytes ${[...bytes.slice(Math.max(0, at), at + 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')} at offset ${at}); JSON between systems is UTF-8 (RFC 8259, 8.1).` });
  }

  const type = response.headers['content-type'] ?? '';
  const isJson = /^application\/([\w.+-]*\+)?json\b/i.test(type.trim());
  // The label is judged on JSON: what a proxy's HTML page says of itself is another check's matter.
  const charset = isJson ? charsetOf(type) : undefined;
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    // US-ASCII is UTF-8's subset: true of an ASCII body. Any other label tells a client to decode
    // JSON as something it may not be (RFC 8259, 8.1: JSON between systems is UTF-8).
    if (charset === 'us-ascii' && isAscii(bytes)) out.push(questionable('wire.charset', op, exchange, `${where} labels its body charset=us-ascii; true of this body, but JSON is UTF-8 (RFC 8259, 8.1).`));
    else out.push({ rule: 'wire.charset', operationId: op, exchange, outcome: 'failure', message: `${where} labels its JSON body charset=${charset}; a client decodes by the label${isAscii(bytes) ? ', and the first non-ASCII name will be read wrongly' : ', and this body\'s non-ASCII bytes are then read wrongly'}. JSON between systems is UTF-8 (RFC 8259, 8.1).` });
  } else if (charset !== undefined) {
    out.push(held('wire.charset', op, exchange));
  }

  if (text !== undefined && isJson) {
    const body = bom ? text.slice(1) : text;
    // A text nested past any Pet is not parsed whole here: that alone would cost hundreds of MB.
    if (nestsDeeperThan(body)) {
      out.push({ rule: 'wire.one-json-value', operationId: op, exchange, outcome: 'failure', message: `${where} nests arrays or objects more than ${maxDepth} deep (a Pet list is three deep); many JSON parsers refuse it, and none needs it.` });
      return out;
    }
    let parsed = true;
    try {
      JSON.parse(body);
    } catch {
      parsed = false;
    }
    if (parsed) out.push(held('wire.one-json-value', op, exchange));
    else {
      // Looking for where a first value ends costs a parse per character: only short bodies.
      const end = body.length <= 4096 ? secondValueAt(body.trimEnd()) : undefined;
      out.push({
        rule: 'wire.one-json-value',
        operationId: op,
        exchange,
        outcome: 'failure',
        message: end !== undefined ? `${where} sends one JSON value and then more (${JSON.stringify(body.slice(end, end + 40))} from character ${end}); a body is one JSON value.` : `${where} is labelled ${type} but its body is not JSON: ${JSON.stringify(body.slice(0, 80))}.`,
      });
    }
  }
  return out;
}
