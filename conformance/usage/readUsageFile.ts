// Reads a usage file (`--usage FILE`), checked against its JSON Schema, with every omitted part
// read as unused: an operation without `query` sent no documented parameter.
import { readFile } from 'node:fs/promises';
import type { ClientUsage, UsageFile } from '../../common/usage/clientUsage.ts';
import { schemaCheck } from '../../common/schemaCheck.ts';
import { usageSchema } from './usageSchema.ts';

export class UsageFileError extends Error {}

/** The file's clients with every part present; a UsageFileError says what is wrong and how to mend it. */
export function parseUsage(text: string, name: string): UsageFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageFileError(`--usage ${name} is not JSON (${(error as Error).message}). Give a usage file the mock (GET /__mock/client-usage) or the proxy (GET /__proxy/usage) wrote.`);
  }
  const [problem] = schemaCheck(usageSchema)(value);
  if (problem !== undefined) throw new UsageFileError(`--usage ${name} is not a usage file: ${problem}. See docs/usage.md and conformance/usage/usage.schema.json.`);
  const file = value as UsageFile;
  if (file.clients.length === 0) throw new UsageFileError(`--usage ${name} names no client, so no client can be judged. Write it after the client has sent its requests.`);
  const clients: ClientUsage[] = file.clients.map((c) => ({
    client: c.client,
    label: c.label ?? c.client,
    requests: c.requests ?? 0,
    operations: c.operations.map((o) => ({ operationId: o.operationId, method: o.method ?? '', path: o.path ?? '', requests: o.requests ?? 0, query: o.query ?? {}, body: o.body ?? [], reads: o.reads ?? {}, statuses: o.statuses ?? [] })),
  }));
  return { format: file.format, source: file.source ?? 'hand', clients };
}

export async function readUsageFile(path: string): Promise<UsageFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageFileError(`--usage ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give the path of a usage file.`);
  }
  return parseUsage(text, path);
}
