import { createHash } from 'node:crypto';

/**
 * The custom_ids seen so far in one upload, in memory that stays small whatever the ids are: each
 * id is kept as 64 bits of its SHA-256 (open addressing over typed arrays, 12 bytes a slot, at most
 * half full) with the 1-based line it was first seen on. A 100 MiB file of the shortest valid lines
 * (about 1.9 million) needs about 50 MB; a file the size of the largest batch (50,000 lines) about
 * 1.5 MB. Two different ids share 64 bits with a probability of about n²/2⁶⁵ (1 in 10¹¹ at
 * 50,000 lines): a duplicate reported where there is none is that unlikely.
 */
export class CustomIdSet {
  private high = new Uint32Array(1024);
  private low = new Uint32Array(1024);
  /** 0 = empty slot (lines start at 1). */
  private lines = new Uint32Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds the id seen on `line`; returns the line it was first seen on when it is a repeat. */
  add(id: string, line: number): number | undefined {
    const digest = createHash('sha256').update(id, 'utf8').digest();
    const high = digest.readUInt32LE(0);
    const low = digest.readUInt32LE(4);
    const existing = this.find(high, low);
    if (existing !== undefined) return existing;
    if ((this.count + 1) * 2 > this.lines.length) this.grow();
    this.insert(high, low, line);
    this.count += 1;
    return undefined;
  }

  private find(high: number, low: number): number | undefined {
    const mask = this.lines.length - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const line = this.lines[slot]!;
      if (line === 0) return undefined;
      if (this.high[slot] === high && this.low[slot] === low) return line;
    }
  }

  private insert(high: number, low: number, line: number): void {
    const mask = this.lines.length - 1;
    let slot = low & mask;
    while (this.lines[slot] !== 0) slot = (slot + 1) & mask;
    this.high[slot] = high;
    this.low[slot] = low;
    this.lines[slot] = line;
  }

  private grow(): void {
    const { high, low, lines } = this;
    this.high = new Uint32Array(lines.length * 2);
    this.low = new Uint32Array(lines.length * 2);
    this.lines = new Uint32Array(lines.length * 2);
    for (let slot = 0; slot < lines.length; slot += 1) if (lines[slot] !== 0) this.insert(high[slot]!, low[slot]!, lines[slot]!);
  }
}
