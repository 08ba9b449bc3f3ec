// A shrunk failing sequence as a bash script that sends it again, to a fresh deployment as well as
// to the one the run checked: each id the sequence's own creates got is read from their 201 when
// the script runs (ids are the deployment's to assign), never copied from the failed run.
import { curlArgs, expandingWord, shellQuote } from '../http/curlCommand.ts';
import type { Exchange } from '../http/exchange.ts';
import { integerText } from '../../common/json/losslessJson.ts';

/** Bodies longer than this go in through stdin: one argument may not exceed 128 KiB on Linux. */
const longBody = 16 * 1024;

/** The id a 2xx to a POST of the collection gave, as its exact digits. */
function createdId(exchange: Exchange): string | undefined {
  if (exchange.request.method !== 'POST' || !/^\/pets\/?(\?|$)/.test(exchange.path)) return undefined;
  const { status, value } = exchange.response;
  if (status < 200 || status >= 300 || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return integerText((value as Record<string, unknown>).id);
}

/**
 * The creates among `earlier` whose ids a request of `sequence` names in its path (`/pets/{id}`),
 * so that the script makes the pets it reads instead of naming ids a fresh deployment never gave.
 */
export function creatorsOf(sequence: readonly Exchange[], earlier: readonly Exchange[]): Exchange[] {
  const named = new Set(sequence.flatMap((e) => /^\/pets\/([^/?#]*)/.exec(e.path)?.[1]?.match(/-?\d+/g) ?? []));
  const first = sequence[0]?.seq ?? Number.POSITIVE_INFINITY;
  return earlier.filter((e) => e.seq < first && named.has(createdId(e) ?? ''));
}

/** The base URL the run sent to: the request's URL without its path. */
function baseOf(exchange: Exchange): string | undefined {
  const { url } = exchange.request;
  return url.endsWith(exchange.path) ? url.slice(0, url.length - exchange.path.length) : undefined;
}

/**
 * The sequence as a runnable script; `context` are earlier requests its verdict rests on (the create
 * a read-back compares with), sent first. Output: before each answer a line naming the request and
 * the status the run got; the answer with its status line and headers (`-i`); then `--- answered
 * <status>`. `PETS_BASE_URL` aims it at another deployment; `PETS_API_KEY` is the key.
 */
export function curlScript(exchanges: readonly Exchange[], context: readonly Exchange[] = []): string {
  const all = [...context, ...exchanges];
  const base = all.map(baseOf).find((b) => b !== undefined);
  // Ids a create of the script got, by their digits; captured only when a later request uses them.
  const creates = new Map<string, number>();
  const used = new Set<number>();
  // Only where a path names a pet (`/pets/{petId}`, in any spelling: `…/75.0`, `…/+75`), never in a query.
  const pathOf = (e: Exchange) => {
    const match = /^(\/pets\/)([^/?#]*)(.*)$/s.exec(e.path);
    if (!match) return e.path;
    let segment = match[2]!;
    for (const [id, seq] of creates) {
      const digits = new RegExp(`(?<![0-9])${id.replace('-', '\\-')}(?![0-9])`, 'g');
      if (!digits.test(segment)) continue;
      used.add(seq);
      segment = segment.replace(digits, `\${id_${seq}}`);
    }
    return `${match[1]}${segment}${match[3]}`;
  };
  // First pass: which creates later requests use.
  for (const e of all) {
    pathOf(e);
    const id = createdId(e);
    if (id !== undefined && !creates.has(id)) creates.set(id, e.seq);
  }
  creates.clear();

  const lines = [
    '#!/usr/bin/env bash',
    '# The shortest failing sequence the suite found, sent again. Set PETS_API_KEY (and PETS_API_KEY_2)',
    '# first; PETS_BASE_URL sends it to another deployment. Ids its creates get are read from their answers.',
    'set -u',
    `base="\${PETS_BASE_URL:-${base ?? ''}}"`,
  ];
  if (used.size > 0) {
    lines.push(
      'answer="$(mktemp)"',
      'trap \'rm -f "$answer"\' EXIT',
      '# The "id" of the JSON object the last create answered with: its digits, as sent.',
      'created_id() { sed -n \'s/.*"id"[[:space:]]*:[[:space:]]*\\(-\\{0,1\\}[0-9][0-9]*\\).*/\\1/p\' "$answer" | head -n 1; }',
    );
  }
  const section = (title: string) => lines.push('', `# ${title}`);
  for (const [i, e] of all.entries()) {
    if (context.length > 0 && i === 0) section('Earlier requests the verdict rests on:');
    if (context.length > 0 && i === context.length) section('The sequence:');
    const path = pathOf(e);
    const names = [...path.matchAll(/\$\{(id_\d+)\}/g)].map((m) => m[1]!);
    const url = base !== undefined && e.request.url === `${base}${e.path}` ? expandingWord(`\${base}${path}`, ['base', ...names]) : shellQuote(e.request.url);
    const shown = `#${e.seq} ${e.request.method} ${path.replace(/\$\{id_(\d+)\}/g, '{id of #$1}')} (the run was answered ${e.response.status})`;
    const body = e.request.body;
    const args = curlArgs({ ...e.request, body: body !== undefined && body.length > longBody ? undefined : body }, url);
    const command = ['curl', '-sS', '-i', '-w', shellQuote('\\n--- answered %{http_code}\\n'), ...args];
    let line = command.join(' ');
    if (body !== undefined && body.length > longBody) line = `printf '%s' "$(cat <<'PETS_BODY'\n${body}\nPETS_BODY\n)" | ${line} --data-binary @-`;
    const id = createdId(e);
    const capture = id !== undefined && used.has(e.seq);
    lines.push(`echo ${shellQuote(`--- ${shown}`)}`, capture ? `${line} | tee "$answer"` : line);
    if (capture) {
      lines.push(`id_${e.seq}="$(created_id)"`);
      creates.set(id, e.seq);
    }
  }
  return `${lines.join('\n')}\n`;
}
