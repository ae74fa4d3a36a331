/**
 * The text of the records this instance sealed last, by task id, so reading back a body it wrote
 * itself costs a parse instead of an open. A task's step and its answers usually run where the
 * task was written last: a create is read back by its first step, a step re-reads what it just
 * claimed, and `tasks/get` reads what the step stored. Opening a body (base64, secretbox, inflate)
 * was the largest part of those reads (bench/tasks: a third of a create's sealing CPU).
 *
 * Why it is safe: a hit needs the body Redis returned to be the very string this instance sealed,
 * and the same ciphertext under the same key holds the same text. Any other body (written by
 * another instance, a newer revision, or tampered with) misses and is opened in full. Parsing
 * yields a fresh object each time, so callers may change what they get, as with an open.
 */
import { contentOfText, type SealedContent, type SealedText } from '../state/sealed-state.js';

/**
 * How many records, and how many characters in all (each record's text and its sealed body, both
 * held), are kept: the oldest written go first.
 */
const MAX_ENTRIES = 1024;
const MAX_CHARACTERS = 8 * 1024 * 1024;
/** A record this large is opened as usual: it would crowd out many small ones for one hit. */
const MAX_ENTRY_TEXT = 256 * 1024;

export class SealedRecordCache {
  readonly #entries = new Map<string, SealedText>();
  #characters = 0;

  /** The record sealed as `sealed` is now the one stored for `taskId`. */
  remember(taskId: string, sealed: SealedText): void {
    this.forget(taskId);
    if (sealed.text.length > MAX_ENTRY_TEXT) return;
    this.#entries.set(taskId, sealed);
    this.#characters += held(sealed);
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES && this.#characters <= MAX_CHARACTERS) break;
      this.#entries.delete(oldest);
      this.#characters -= held(entry);
    }
  }

  /** What `body` holds, when it is the body this instance sealed last for `taskId`. */
  recall(taskId: string, body: string): SealedContent | undefined {
    const entry = this.#entries.get(taskId);
    return entry && entry.token === body ? contentOfText(entry.text, entry.json) : undefined;
  }

  forget(taskId: string): void {
    const entry = this.#entries.get(taskId);
    if (!entry) return;
    this.#entries.delete(taskId);
    this.#characters -= held(entry);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** What an entry holds: its text and its sealed body. */
function held(sealed: SealedText): number {
  return sealed.text.length + sealed.token.length;
}
