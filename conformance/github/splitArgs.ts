/** An `args` string that cannot be split into arguments; the message says where and what to do. */
export class ArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgsError';
  }
}

/**
 * Splits one line of options into arguments as a POSIX shell would split words, and does nothing
 * else a shell does: `'…'` keeps everything literally, `"…"` keeps everything but `\"` and `\\`,
 * a backslash outside quotes keeps the next character, and blanks separate words. `$(…)`, backticks,
 * `$VAR`, globs and `;` are kept as text: the action's inputs are data, never a script
 * (https://docs.github.com/actions/security-guides/security-hardening-for-github-actions).
 * An unclosed quote or a trailing backslash is refused rather than guessed at, since cutting the
 * arguments there would run the suite with options nobody gave.
 */
export function splitArgs(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw unclosed("'", i, line);
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && (line[j + 1] === '"' || line[j + 1] === '\\')) j++;
        word += line[j];
      }
      if (j >= line.length) throw unclosed('"', i, line);
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new ArgsError('it ends with a backslash, which escapes nothing. Remove it, or quote a literal backslash as \'\\\'.');
      word += line[++i];
    } else {
      word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function unclosed(quote: string, at: number, line: string): ArgsError {
  const name = quote === '"' ? 'double' : 'single';
  return new ArgsError(`the ${name} quote at character ${at + 1} is never closed (${JSON.stringify(line.slice(at, at + 40))}${line.length - at > 40 ? '…' : ''}). Close it, or escape it as \\${quote}.`);
}
