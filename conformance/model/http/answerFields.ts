// One answer as the HTTP linter reads it: its field lines by name, and how findings name it.
import type { Exchange } from '../../http/exchange.ts';
import { broken, type Judgement } from '../judgement.ts';
import type { RequestView } from '../requestView.ts';
import type { RuleId } from '../rules.ts';

export interface Answer {
  exchange: Exchange;
  view: RequestView;
  /** The operation findings are filed under: the documented one, or `unlisted`. */
  op: string;
  /** `#12 GET /pets (200)`, for messages. */
  where: string;
  status: number;
  /** Every line of a field (name in any case), in order. */
  lines(name: string): string[];
  /** A field's lines joined with ", " (RFC 9110, 5.3), undefined when absent. */
  field(name: string): string | undefined;
}

export function answerOf(exchange: Exchange, view: RequestView): Answer {
  const raw = exchange.response.rawHeaders;
  const lines = (name: string) => {
    const lower = name.toLowerCase();
    return raw.filter(([n]) => n === lower).map(([, v]) => v);
  };
  return {
    exchange,
    view,
    op: view.operation ?? 'unlisted',
    where: `#${exchange.seq} ${view.method} ${exchange.path} (${exchange.response.status})`,
    status: exchange.response.status,
    lines,
    field: (name) => {
      const found = lines(name);
      return found.length === 0 ? undefined : found.join(', ');
    },
  };
}

/**
 * A field defined as one value (not a list) sent on more than one line: a failure naming the
 * values (RFC 9110, 5.3), or undefined when it came once.
 */
export function sentTwice(answer: Answer, rule: RuleId, name: string): Judgement | undefined {
  const values = answer.lines(name);
  if (values.length < 2) return undefined;
  return broken(rule, answer.op, answer.exchange, `${answer.where} sends ${name} ${values.length} times (${values.map((v) => JSON.stringify(v)).join(', ')}); it is one value, and a sender must not repeat it (RFC 9110, 5.3). Send it once.`);
}
