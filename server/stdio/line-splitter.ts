/**
 * The framing of the stdio transport (spec, basic/transports "stdio"): one JSON-RPC message per
 * line, UTF-8, lines ending in `\n` (a `\r` before it is tolerated). Bytes are kept until a line
 * is complete, so a multi-byte character split across two chunks decodes correctly. A line longer
 * than the limit is reported once and skipped up to its end, so one runaway message cannot take
 * the process's memory and the messages after it are still read.
 */

export type Line = { kind: 'line'; text: string } | { kind: 'oversize'; bytes: number };

const NEWLINE = 0x0a;

export class LineSplitter {
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #length = 0;
  /** Inside an oversize line: drop bytes until its newline. */
  #skipping = false;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds one chunk; returns what it completed, in order. Blank lines are not messages. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.#append(chunk.subarray(start, newline), lines);
      this.#finishLine(lines);
      start = newline + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start), lines);
    return lines;
  }

  /** At end of input: a last message without its newline still counts. */
  end(): Line[] {
    const lines: Line[] = [];
    this.#finishLine(lines);
    return lines;
  }

  #append(bytes: Buffer, lines: Line[]): void {
    if (this.#skipping || bytes.length === 0) return;
    if (this.#length + bytes.length > this.#maxLineBytes) {
      lines.push({ kind: 'oversize', bytes: this.#length + bytes.length });
      this.#parts = [];
      this.#length = 0;
      this.#skipping = true;
      return;
    }
    this.#parts.push(bytes);
    this.#length += bytes.length;
  }

  #finishLine(lines: Line[]): void {
    const wasSkipping = this.#skipping;
    this.#skipping = false;
    if (wasSkipping || this.#length === 0) return;
    let text = Buffer.concat(this.#parts, this.#length).toString('utf8');
    this.#parts = [];
    this.#length = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() !== '') lines.push({ kind: 'line', text });
  }
}
