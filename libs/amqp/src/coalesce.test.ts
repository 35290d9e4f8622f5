import { Writable } from 'node:stream';
import { coalesceWrites, socketOf } from './coalesce';

/** A sink that records each call the stream machinery makes to it: one per syscall on a socket. */
function sink(): { stream: Writable; flushes: Buffer[][] } {
  const flushes: Buffer[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      flushes.push([chunk]);
      done();
    },
    writev(chunks, done) {
      flushes.push(chunks.map((entry) => entry.chunk as Buffer));
      done();
    },
  });
  return { stream, flushes };
}

describe('coalesceWrites', () => {
  it('sends the writes of one turn in one flush, in order, and the next turn in another', async () => {
    const { stream, flushes } = sink();
    coalesceWrites(stream);
    stream.write(Buffer.from('a'));
    stream.write(Buffer.from('b'));
    stream.write(Buffer.from('c'));
    expect(flushes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushes.map((chunks) => Buffer.concat(chunks).toString())).toEqual(['abc']);

    stream.write(Buffer.from('d'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushes.map((chunks) => Buffer.concat(chunks).toString())).toEqual(['abc', 'd']);
  });

  it('without it, each write is its own flush (what it saves)', async () => {
    const { stream, flushes } = sink();
    stream.write(Buffer.from('a'));
    stream.write(Buffer.from('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushes.length).toBeGreaterThan(1);
  });

  it('passes write callbacks through and leaves a destroyed stream alone', async () => {
    const { stream } = sink();
    coalesceWrites(stream);
    const written = await new Promise<unknown>((resolve) => stream.write(Buffer.from('x'), resolve));
    expect(written).toBeFalsy();
    stream.destroy();
    expect(() => stream.write(Buffer.from('y'), () => undefined)).not.toThrow();
  });

  it('finds the socket under an amqplib connection, or nothing', () => {
    const { stream } = sink();
    expect(socketOf({ connection: { stream } })).toBe(stream);
    expect(socketOf({})).toBeUndefined();
  });
});
