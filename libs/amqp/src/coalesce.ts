import type { Writable } from 'node:stream';

/**
 * Writes made to a connection's socket in one turn of the event loop leave in one syscall: the
 * first write of a turn corks the socket and a `process.nextTick` uncorks it, so what amqplib
 * writes in that turn (its multiplexer writes every channel's queued frames in one loop: the
 * publishes of every call answered since the last turn, a batch's acks, their confirms' replies)
 * goes out as one `writev` instead of a `write` each. Nothing waits longer than the current turn;
 * heartbeats and the close handshake pass through the same path.
 */
export function coalesceWrites(socket: Writable): void {
  if (typeof socket.cork !== 'function' || typeof socket.uncork !== 'function') return;
  const write = socket.write;
  let corked = false;
  const release = (): void => {
    corked = false;
    socket.uncork();
  };
  socket.write = function coalescedWrite(this: Writable, ...args: unknown[]): boolean {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      process.nextTick(release);
    }
    return (write as (...rest: unknown[]) => boolean).apply(this, args);
  } as Writable['write'];
}

/** The socket under an amqplib connection (`ChannelModel.connection.stream`), when there is one. */
export function socketOf(connection: unknown): Writable | undefined {
  const stream = (connection as { connection?: { stream?: unknown } }).connection?.stream;
  return stream && typeof (stream as Writable).write === 'function' ? (stream as Writable) : undefined;
}
