import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `changed` once a burst of changes to any of `files` has settled (150 ms without another).
 * Watches the folders, not the files: editors often save by writing a new file and renaming it.
 * Returns a function that stops watching.
 */
export function watchFiles(files: readonly string[], changed: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [];
  for (const dir of new Set(files.map((f) => dirname(f)))) {
    const names = new Set(files.filter((f) => dirname(f) === dir).map((f) => basename(f)));
    watchers.push(watch(dir, (_, name) => {
      if (!name || !names.has(name.toString())) return;
      clearTimeout(timer);
      timer = setTimeout(changed, 150);
    }));
  }
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
