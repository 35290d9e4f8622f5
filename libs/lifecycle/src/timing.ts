/**
 * Bounds a promise in time: rejects with `Error(message)` when it has not settled within
 * `timeoutMs` (the promise itself goes on; its result is ignored). For store calls whose client
 * queues commands while reconnecting (ioredis's offline queue): a caller that fails open or
 * fails fast must not wait for the reconnection instead.
 */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message = `did not answer within ${timeoutMs}ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
