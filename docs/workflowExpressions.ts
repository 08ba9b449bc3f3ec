// The part of GitHub Actions' expression language (`${{ … }}`) the docs' workflows and action.yml
// use, evaluated as a runner does: contexts (`secrets.X`, `vars.X`, `inputs.x`, `env.X`,
// `steps.<id>.outputs.<name>`, `github.x`), string, number and boolean literals, `==`, `!=`, `&&`,
// `||`, `!`, parentheses, and the functions always(), success(), failure(), cancelled(),
// toJSON(), contains(), startsWith(). Anything else throws, naming it, so a workflow using more
// than this is never run half-understood.
// https://docs.github.com/en/actions/reference/workflows-and-actions/expressions

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
export interface ExpressionContext {
  contexts: Record<string, Value>;
  /** Whether an earlier step of the job failed (for success() and failure()). */
  failed: boolean;
}

/** Text with each `${{ … }}` replaced by its value as a string, as a runner substitutes it. */
export function substitute(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) => asString(evaluate(expression, context)));
}

/** An `if:` condition: with or without `${{ }}`, truthy as the runner reads it. */
export function condition(text: string | boolean | undefined, context: ExpressionContext): boolean {
  if (text === undefined) return !context.failed;
  if (typeof text === 'boolean') return text;
  const inner = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(text)?.[1] ?? text;
  const usesStatus = /\b(always|success|failure|cancelled)\s*\(/.test(inner);
  const value = truthy(evaluate(inner, context));
  return usesStatus ? value : value && !context.failed;
}

export function asString(value: Value): string {
  if (value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value, null, 2);
  return String(value);
}

const truthy = (value: Value) => value !== null && value !== false && value !== 0 && value !== '' && !Number.isNaN(value);

type Token = { kind: 'str' | 'num' | 'id' | 'op'; text: string };

function tokens(expression: string): Token[] {
  const out: Token[] = [];
  const pattern = /\s*(?:'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w-]*)|(==|!=|&&|\|\||[!().,[\]*]))/y;
  let at = 0;
  while (at < expression.length) {
    if (/^\s*$/.test(expression.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(expression);
    if (!m) throw new Error(`Expression "${expression.trim()}": cannot read "${expression.slice(at).trim()}".`);
    at = pattern.lastIndex;
    if (m[1] !== undefined) out.push({ kind: 'str', text: m[1].replaceAll("''", "'") });
    else if (m[2] !== undefined) out.push({ kind: 'num', text: m[2] });
    else if (m[3] !== undefined) out.push({ kind: 'id', text: m[3] });
    else out.push({ kind: 'op', text: m[4]! });
  }
  return out;
}

export function evaluate(expression: string, context: ExpressionContext): Value {
  const list = tokens(expression);
  let i = 0;
  const peek = () => list[i];
  const take = (text?: string) => {
    const token = list[i++];
    if (!token || (text !== undefined && token.text !== text)) throw new Error(`Expression "${expression.trim()}": expected ${text ?? 'more'} at token ${i}.`);
    return token;
  };
  const loose = (value: Value) => (typeof value === 'string' ? value.toLowerCase() : value);
  const or = (): Value => {
    let left = and();
    while (peek()?.text === '||') {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): Value => {
    let left = equality();
    while (peek()?.text === '&&') {
      take();
      const right = equality();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const equality = (): Value => {
    let left = unary();
    while (peek()?.text === '==' || peek()?.text === '!=') {
      const op = take().text;
      const right = unary();
      // Strings compare case-insensitively; a boolean or number against a string, as that string.
      const [a, b] = typeof left === typeof right ? [loose(left), loose(right)] : [loose(asString(left)), loose(asString(right))];
      left = op === '==' ? a === b : a !== b;
    }
    return left;
  };
  const unary = (): Value => {
    if (peek()?.text === '!') {
      take();
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): Value => {
    const token = take();
    if (token.kind === 'str') return token.text;
    if (token.kind === 'num') return Number(token.text);
    if (token.text === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token.kind !== 'id') throw new Error(`Expression "${expression.trim()}": unexpected "${token.text}".`);
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (token.text === 'null') return null;
    if (peek()?.text === '(') return call(token.text);
    if (!(token.text in context.contexts)) throw new Error(`Expression "${expression.trim()}": no context ${token.text} here.`);
    let value: Value = context.contexts[token.text]!;
    let path = token.text;
    while (peek()?.text === '.' || peek()?.text === '[') {
      let key: string;
      if (take().text === '.') key = take().text;
      else {
        key = asString(or());
        take(']');
      }
      path += `.${key}`;
      value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value[key] ?? lookupFailed(path, token.text)) : null;
    }
    return value;
  };
  const lookupFailed = (path: string, root: string): Value => {
    // A secret or variable the test does not set would be an empty string on a runner: here it is a
    // mistake in the test's values, named.
    if (root === 'secrets' || root === 'vars') throw new Error(`Expression "${expression.trim()}": ${path} has no test value.`);
    return null;
  };
  const call = (name: string): Value => {
    take('(');
    const args: Value[] = [];
    while (peek()?.text !== ')') {
      args.push(or());
      if (peek()?.text === ',') take();
    }
    take(')');
    switch (name) {
      case 'always':
        return true;
      case 'success':
        return !context.failed;
      case 'failure':
        return context.failed;
      case 'cancelled':
        return false;
      case 'toJSON':
        return JSON.stringify(args[0] ?? null, null, 2);
      case 'contains':
        return Array.isArray(args[0]) ? args[0].some((v) => loose(v) === loose(args[1]!)) : asString(args[0]!).toLowerCase().includes(asString(args[1]!).toLowerCase());
      case 'startsWith':
        return asString(args[0]!).toLowerCase().startsWith(asString(args[1]!).toLowerCase());
      default:
        throw new Error(`Expression "${expression.trim()}": no function ${name}() here.`);
    }
  };
  const value = or();
  if (i < list.length) throw new Error(`Expression "${expression.trim()}": unexpected "${list[i]!.text}".`);
  return value;
}
