/**
 * The GitHub Action's inputs that reach the suite, and how each becomes a `pets-conformance`
 * option. action.yml declares them and passes each to its run step as `INPUT_<NAME>` (composite
 * actions do not export inputs themselves); a test keeps action.yml, this table and the CLI in step.
 */
export type ActionInputKind =
  /** `--option value`, validated by the CLI's own parser for that option. */
  | 'value'
  /** `true` adds `--option`, `false` (or empty) leaves it out. */
  | 'flag'
  /** Reaches the suite through this environment variable, never the command line (a secret). */
  | 'secret'
  /** One `--option line` per non-blank line. */
  | 'lines'
  /** More options, split like a shell splits words. */
  | 'args';

export interface ActionInput {
  name: string;
  kind: ActionInputKind;
  /** The CLI option (`--depth`) or, for a secret, the environment variable. */
  target: string;
}

export const actionInputs: readonly ActionInput[] = [
  { name: 'base-url', kind: 'value', target: '--base-url' },
  { name: 'api-key', kind: 'secret', target: 'PETS_API_KEY' },
  { name: 'api-key-2', kind: 'secret', target: 'PETS_API_KEY_2' },
  { name: 'api-key-plan', kind: 'value', target: '--api-key-plan' },
  { name: 'api-key-2-plan', kind: 'value', target: '--api-key-2-plan' },
  { name: 'read-only', kind: 'flag', target: '--read-only' },
  { name: 'probe-rate-limit', kind: 'flag', target: '--probe-rate-limit' },
  { name: 'probe-max-requests', kind: 'value', target: '--probe-max-requests' },
  { name: 'shared-key', kind: 'flag', target: '--shared-key' },
  { name: 'allow-partial', kind: 'flag', target: '--allow-partial' },
  { name: 'checks', kind: 'value', target: '--checks' },
  { name: 'exclude-checks', kind: 'value', target: '--exclude-checks' },
  { name: 'depth', kind: 'value', target: '--depth' },
  { name: 'seed', kind: 'value', target: '--seed' },
  { name: 'timeout', kind: 'value', target: '--timeout' },
  { name: 'max-wait', kind: 'value', target: '--max-wait' },
  { name: 'max-duration', kind: 'value', target: '--max-duration' },
  { name: 'max-body', kind: 'value', target: '--max-body' },
  { name: 'headers', kind: 'lines', target: '--header' },
  { name: 'usage', kind: 'value', target: '--usage' },
  { name: 'fail-on', kind: 'value', target: '--fail-on' },
  { name: 'config', kind: 'value', target: '--config' },
  { name: 'report-dir', kind: 'value', target: '--report-dir' },
  { name: 'args', kind: 'args', target: '' },
];

/** The inputs action.yml uses itself and the suite never sees. */
export const hostInputs = ['upload-reports', 'artifact-name', 'node-version'] as const;

/** The environment variable action.yml passes an input in: `max-body` → `INPUT_MAX_BODY`. */
export const inputVariable = (name: string) => `INPUT_${name.toUpperCase().replace(/-/g, '_')}`;
