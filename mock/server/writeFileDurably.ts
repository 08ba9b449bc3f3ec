import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new
 * content, whole: the text goes to a temporary file beside it, is flushed to disk (fsync), and
 * the temporary file is renamed over the old one; then the folder is flushed, so the rename
 * itself survives a power cut (rename(2) is atomic, but only durable once the directory is synced).
 */
export async function writeFileDurably(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  const folder = await open(dirname(file), 'r').catch(() => undefined);
  // Some file systems refuse fsync on a directory (EINVAL, EISDIR): the rename is then as durable as they make it.
  await folder?.sync().catch(() => {});
  await folder?.close();
}
