// A guide's shell blocks as one reader runs them: one terminal, top to bottom, so what a block
// exports or starts in the background is there for the next. The script is the blocks' own lines;
// the only lines added are the terminal a reader would open beside it:
// - A command printed in the foreground that serves until stopped (`npx pets-mock`, `npx
//   pets-conformance proxy`, `redis-server`) runs in a terminal of its own: started in its own
//   process group, waited for until its port answers, and stopped with Ctrl-C (SIGINT to that
//   group) when the session ends or a later line starts a server on its port.
// - A block that calls a mock at `127.0.0.1:<port>` it does not start itself finds one there: the
//   mock from an earlier block (given 10 s to answer when an earlier block started servers on
//   ports it does not print, as a loop does), or else the installed `pets-mock` started on that
//   port, as the reader has it running in another terminal.
// - A block that prints `kill` stops what it started: the ports it started servers on are free
//   within 5 s after it, or the session fails naming the port.
// - A block the guide tells the reader to save (`<!-- file: NAME -->`) is written under that name.
// Each block runs under `set -e`, so its first failing command fails the session; the marker line
// `::block <file>:<line>::` on stderr tells which block that was.
import type { PrintedSnippet } from './printedSnippets.ts';

/** Where a command line starts a server, and on which port (undefined: not a literal one). */
export function serverStart(line: string): { port: number | undefined; background: boolean } | undefined {
  const words = line.replace(/(^|\s)#.*$/, '').trim();
  const defaults: [RegExp, number][] = [[/(^|\s)(npx\s+)?pets-conformance\s+proxy(\s|$)/, 8080], [/(^|\s)(npx\s+)?pets-mock(\s|$)/, 4010], [/(^|\s)redis-server(\s|$)/, 6379]];
  const found = defaults.find(([command]) => command.test(words));
  if (!found) return undefined;
  const port = /--port[=\s]+(\S+)/.exec(words)?.[1];
  return { port: port === undefined ? found[1] : /^\d+$/.test(port) ? Number(port) : undefined, background: /&\s*$/.test(words) };
}

/** The ports of `127.0.0.1` (or localhost) URLs a block's commands call, comments left out. */
export function calledPorts(text: string): number[] {
  const commands = text.split('\n').map((line) => line.replace(/(^|\s)#.*$/, '')).join('\n');
  return [...new Set([...commands.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost):(\d+)/g)].map((m) => Number(m[1])))];
}

const prelude = String.raw`
__held=()        # "port:pgid" of the servers this session holds in terminals of their own
__wait_port() { for __i in $(seq 1 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "nothing answers on port $1 after 60 s" >&2; return 1; }
__free() { for __i in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null || return 0; sleep 0.1; done; echo "port $1 is still served 5 s after the block's kill: the recipe leaves its server running" >&2; return 1; }
__stop() { local pgid=$1; kill -INT -- "-$pgid" 2>/dev/null || return 0; for __i in $(seq 1 100); do kill -0 -- "-$pgid" 2>/dev/null || return 0; sleep 0.1; done; kill -KILL -- "-$pgid" 2>/dev/null || true; }
__yield_port() { local kept=() entry; for entry in "${"$"}{__held[@]}"; do if [ "${"$"}{entry%%:*}" = "$1" ]; then __stop "${"$"}{entry#*:}"; else kept+=("$entry"); fi; done; __held=("${"$"}{kept[@]}"); }
__terminal() { local port=$1; shift; __yield_port "$port"; setsid bash -c "$*" > "terminal-$port.log" 2>&1 & __held+=("$port:$!"); __wait_port "$port" || { cat "terminal-$port.log" >&2; return 1; }; }
__ensure_mock() { for __i in $(seq 1 "$2"); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; __terminal "$1" "exec ./node_modules/.bin/pets-mock --port $1"; }
__end() { local entry; for entry in "${"$"}{__held[@]}"; do __stop "${"$"}{entry#*:}"; done; }
trap __end EXIT
`;

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The session script for a document's shell blocks (each already as the reader has it: printedSnippets.asTheReaderHasIt). */
export function readerSession(blocks: readonly Pick<PrintedSnippet, 'file' | 'line' | 'text' | 'saveAs'>[]): string {
  const parts = ['set -e', prelude];
  let unprintedPorts = false;
  for (const block of blocks) {
    parts.push(`echo ${quote(`::block ${block.file}:${block.line}::`)} >&2`);
    // A block the guide tells the reader to save: written as printed, for the commands after it.
    if (block.saveAs !== undefined) {
      parts.push(`printf '%s' ${quote(block.text)} > ${quote(block.saveAs)}`);
      continue;
    }
    const lines = block.text.replace(/\\\n/g, ' ').split('\n');
    const started = lines.map(serverStart).filter((s) => s !== undefined);
    const startedPorts = new Set(started.map((s) => s.port));
    for (const port of calledPorts(block.text)) if (!startedPorts.has(port)) parts.push(`__ensure_mock ${port} ${unprintedPorts ? 600 : 1}`);
    if (started.some((s) => s.port === undefined)) unprintedPorts = true;
    for (const line of lines) {
      const start = serverStart(line);
      if (start?.port !== undefined && !start.background) parts.push(`__terminal ${start.port} ${quote(line.replace(/(^|\s)#.*$/, '').trim())}`);
      else if (start?.port !== undefined) parts.push(`__yield_port ${start.port}`, line);
      else parts.push(line);
    }
    if (/(^|\s)kill\s/m.test(block.text)) for (const port of startedPorts) if (port !== undefined) parts.push(`__free ${port}`);
  }
  return parts.join('\n');
}
