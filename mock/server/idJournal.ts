import { readFile } from 'node:fs/promises';
import type { IdReserver } from '../state/petStore.ts';
import { writeFileDurably } from './writeFileDurably.ts';

const IDS_FORMAT = 'pets-mock-ids/1';

/** How many ids one reservation covers: one small synced write per thousand creates. */
const ID_BLOCK = 1000;

/**
 * The id high-water mark, in a small file beside the state file (`<state-file>.ids`). Before the
 * store hands out an id above the mark, the mark moves a block ahead and is written durably
 * (writeFileDurably), so after any crash, `kill -9` included, the next start continues above every
 * id that was ever handed out, even those of pets the state file had not saved yet.
 */
export class IdJournal implements IdReserver {
  #reservedThrough: number;

  private constructor(readonly file: string, reservedThrough: number) {
    this.#reservedThrough = reservedThrough;
  }

  /** Reads the journal; a missing one has reserved nothing. Rejects, naming the file, when it is unreadable. */
  static async open(file: string): Promise<IdJournal> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new IdJournal(file, 0);
      throw new Error(`Cannot read the id journal ${file}: ${(error as Error).message}. Fix its permissions or give another --state-file.`);
    }
    let data: { format?: unknown; reservedThrough?: unknown } | null = null;
    try {
      data = JSON.parse(text);
    } catch {
      // Handled below.
    }
    if (!data || data.format !== IDS_FORMAT || !Number.isSafeInteger(data.reservedThrough) || (data.reservedThrough as number) < 0) {
      throw new Error(`The id journal ${file} is not a ${IDS_FORMAT} file. Restore it, or, if no client holds ids from this mock, delete it.`);
    }
    return new IdJournal(file, data.reservedThrough as number);
  }

  get reservedThrough(): number {
    return this.#reservedThrough;
  }

  /**
   * On a clean stop, once the state file holds every pet: lowers the mark to the last id handed
   * out, so the next start continues right after it instead of after the reserved block.
   */
  async settle(lastIssued: number): Promise<void> {
    if (lastIssued >= this.#reservedThrough) return;
    await writeFileDurably(this.file, `${JSON.stringify({ format: IDS_FORMAT, reservedThrough: lastIssued })}\n`);
    this.#reservedThrough = lastIssued;
  }

  async reserve(id: number): Promise<void> {
    const through = Math.min(Number.MAX_SAFE_INTEGER, Math.max(id, this.#reservedThrough) + ID_BLOCK - 1);
    await writeFileDurably(this.file, `${JSON.stringify({ format: IDS_FORMAT, reservedThrough: through })}\n`).catch((error: Error) => {
      throw new Error(`Cannot write the id journal ${this.file}: ${error.message}. Create its folder, fix its permissions, or give another --state-file.`);
    });
    this.#reservedThrough = Math.max(this.#reservedThrough, through);
  }
}
