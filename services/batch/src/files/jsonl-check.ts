import { ServiceError } from '@svc/errors';
import { CustomIdSet } from './custom-id-set';
import { MAX_LINE_BYTES } from './limits';

/**
 * Spec (File object): "Each line of a batch input file is a JSON object with a unique
 * `custom_id`, `method` POST, a `url` and a `body` object; a line may be up to 10 MiB."
 *
 * Checked while the bytes arrive (push), so a bad line is refused before the rest of the file is
 * read; memory holds at most one line (≤ 10 MiB) and the custom_id set. Lines end with `\n` (a
 * `\r` before it is dropped); the newline after the last line is optional and ends no line of its
 * own. A UTF-8 byte order mark before the first line is skipped. An empty file has no lines (a
 * batch made from it fails with `empty_file`). Every refusal is 400 invalid_file, param `file`,
 * and its message names the 1-based line (RULINGS 7: lines are counted as editors count them).
 */
export class JsonlCheck {
  /** Lines checked so far. */
  lines = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private started = false;
  private readonly ids = new CustomIdSet();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(private readonly maxLineBytes: number = MAX_LINE_BYTES) {}

  /** The next bytes of the file. Throws invalid_file at the first bad line. */
  push(chunk: Buffer): void {
    let bytes = chunk;
    if (!this.started && bytes.length > 0) {
      this.started = true;
      if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline === -1) {
        this.hold(bytes.subarray(start));
        return;
      }
      this.hold(bytes.subarray(start, newline));
      this.completeLine();
      start = newline + 1;
    }
  }

  /** The end of the file: checks a last line without a newline. Returns the number of lines. */
  end(): number {
    if (this.pendingBytes > 0) this.completeLine();
    return this.lines;
  }

  private hold(part: Buffer): void {
    if (part.length === 0) return;
    // A "\r" is counted against the limit only if more than the line follows it; allow it here.
    if (this.pendingBytes + part.length > this.maxLineBytes + 1) throw this.refuse(this.lines + 1, `is longer than ${this.maxLineBytes / (1024 * 1024)} MiB`);
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private completeLine(): void {
    const line = this.lines + 1;
    let bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    // (no parts: an empty line, as in "\n\n")
    this.pending = [];
    this.pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length > this.maxLineBytes) throw this.refuse(line, `is longer than ${this.maxLineBytes / (1024 * 1024)} MiB`);
    this.checkLine(bytes, line);
    this.lines = line;
  }

  private checkLine(bytes: Buffer, line: number): void {
    if (bytes.length === 0) throw this.refuse(line, 'is empty; each line must be a JSON object');
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      throw this.refuse(line, 'is not valid UTF-8');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.refuse(line, 'is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.refuse(line, 'is not a JSON object');
    const request = value as Record<string, unknown>;
    if (request.custom_id === undefined || request.custom_id === null) throw this.refuse(line, "has no 'custom_id'");
    if (typeof request.custom_id !== 'string' || request.custom_id === '') throw this.refuse(line, "has a 'custom_id' that is not a non-empty string");
    if (request.method !== 'POST') throw this.refuse(line, request.method === undefined ? "has no 'method' (it must be POST)" : "has a 'method' other than POST");
    if (request.url === undefined || request.url === null) throw this.refuse(line, "has no 'url'");
    if (typeof request.url !== 'string' || request.url === '') throw this.refuse(line, "has a 'url' that is not a non-empty string");
    if (request.body === undefined || request.body === null) throw this.refuse(line, "has no 'body'");
    if (typeof request.body !== 'object' || Array.isArray(request.body)) throw this.refuse(line, "has a 'body' that is not a JSON object");
    const first = this.ids.add(request.custom_id, line);
    if (first !== undefined) throw this.refuse(line, `repeats the custom_id ${quote(request.custom_id)} of line ${first}; each custom_id must be unique`);
  }

  private refuse(line: number, what: string): ServiceError {
    return new ServiceError('invalid_file', `Invalid file: line ${line} ${what}.`, { param: 'file' });
  }
}

/** A custom_id in a message: JSON-quoted, at most 64 characters of it. */
function quote(id: string): string {
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);
}
