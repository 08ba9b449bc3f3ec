/** `${NAME}`, `${NAME:-default}`, or `$${` for a literal `${`. */
const reference = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} is used but ${variable} is not set`);
  }
}

/**
 * Replaces `${NAME}` in a string with the environment variable NAME (`${NAME:-default}` when it may
 * be unset), so secrets stay out of a committed config file. Returns the text and the variables used.
 */
export function substituteEnv(text: string, env: Record<string, string | undefined>): { text: string; used: Map<string, string> } {
  const used = new Map<string, string>();
  const out = text.replace(reference, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    const value = env[name!] ?? fallback;
    if (value === undefined) throw new MissingVariableError(name!);
    if (env[name!] !== undefined) used.set(name!, value);
    return value;
  });
  return { text: out, used };
}
