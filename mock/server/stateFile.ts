import { readFile } from 'node:fs/promises';
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import type { ExactValidator } from '../../spec/compileExactSchema.ts';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import type { StoredPet as Pet } from '../state/petJson.ts';
import { MAX_ID } from '../state/petStore.ts';
import { writeFileDurably } from './writeFileDurably.ts';

export const STATE_FORMAT = 'pets-mock-state/1';

export interface SavedState {
  pets: Pet[];
  nextId: number;
}

/**
 * Reads a state file, every categoryId exact (one past 2^53 - 1 is written with its digits and read back as a BigInt). Undefined when it does not exist yet; an error naming the file and the
 * problem when it cannot be read or is not a valid state, so a start never silently replaces it.
 */
export async function readStateFile(file: string, validatePets: ExactValidator): Promise<SavedState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read the state file ${file}: ${(error as Error).message}. Fix its permissions or give another --state-file.`);
  }
  let data: { format?: unknown; pets?: unknown; nextId?: unknown };
  try {
    data = parseJsonExact(text) as typeof data;
  } catch (error) {
    throw new Error(`The state file ${file} is not valid JSON (${(error as Error).message}). Fix it, or move it away to start from the fixtures.`);
  }
  if (data === null || typeof data !== 'object' || data.format !== STATE_FORMAT) {
    throw new Error(`The state file ${file} is not a ${STATE_FORMAT} file. Give a state file the mock wrote, or a path that does not exist yet.`);
  }
  if (!validatePets(data.pets)) {
    throw new Error(`The state file ${file} has invalid pets: ${describeAjvErrors(validatePets.errors, 'pets')}. Fix it, or move it away to start from the fixtures.`);
  }
  const pets = data.pets as Pet[];
  // Read exactly, 2^53 (every id handed out) is a BigInt: it is exact in a double too. Past it stays a BigInt, refused below.
  if (typeof data.nextId === 'bigint' && data.nextId <= 2n ** 53n) data.nextId = Number(data.nextId);
  const past = pets.find((p) => !Number.isSafeInteger(p.id));
  if (past) throw new Error(`The state file ${file} has the pet id ${past.id}, past 2^53 - 1, the largest id the mock hands out. Fix it.`);
  const highest = pets.reduce((max, p) => Math.max(max, p.id), 0);
  // MAX_ID + 1 (2^53, exact in a double) is what the mock saves once it has handed out MAX_ID.
  if (!Number.isInteger(data.nextId) || (data.nextId as number) <= highest || (data.nextId as number) > MAX_ID + 1) {
    throw new Error(`The state file ${file} has nextId ${typeof data.nextId === 'bigint' ? String(data.nextId) : JSON.stringify(data.nextId)}, which must be a whole number above every pet id (${highest}) and at most ${MAX_ID + 1} (every id handed out). Fix it.`);
  }
  if (new Set(pets.map((p) => p.id)).size !== pets.length) {
    throw new Error(`The state file ${file} has two pets with the same id. Fix it.`);
  }
  return { pets, nextId: data.nextId as number };
}

/**
 * Keeps a state file up to date: `changed()` schedules a write within `delayMs`, writes never
 * overlap, and each is durable (writeFileDurably: temporary file, fsync, rename), so a crash
 * mid-write leaves the previous state whole.
 */
export class StateFileWriter {
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Whether the last write reached the disk. */
  lastWriteSucceeded = false;
  /** Told after each write that reached the disk. */
  onWritten: () => void = () => {};

  constructor(
    readonly file: string,
    private readonly read: () => SavedState,
    private readonly onError: (error: Error) => void,
    readonly delayMs = 200,
  ) {}

  changed(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.delayMs);
  }

  /** Writes the current state now (after any write in progress); a failure goes to `onError`. */
  flush(): Promise<void> {
    return this.#enqueue().catch((error: Error) => this.onError(error));
  }

  /** Writes the current state now, rejecting, with a message naming the file, when it cannot. */
  write(): Promise<void> {
    return this.#enqueue().catch((error: Error) => {
      throw new Error(`Cannot write the state file ${this.file}: ${error.message}. Create its folder, fix its permissions, or give another --state-file.`);
    });
  }

  #enqueue(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const next = this.#writing.catch(() => {}).then(() => this.#write());
    this.#writing = next.catch(() => {});
    return next;
  }

  async #write(): Promise<void> {
    const { pets, nextId } = this.read();
    this.lastWriteSucceeded = false;
    await writeFileDurably(this.file, `${stringifyExact({ format: STATE_FORMAT, savedAt: new Date().toISOString(), nextId, pets }, 2)}\n`);
    this.lastWriteSucceeded = true;
    this.onWritten();
  }
}
