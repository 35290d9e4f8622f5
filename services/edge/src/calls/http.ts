import type { Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';

/**
 * The HTTP side of a long call (spec: Long calls), shared by chat completions and Responses.
 * Unary: no answer after `commitMs` commits the 200 and writes one space every `keepaliveMs`
 * until the JSON body (parsers read it unchanged); a failure after that is written into the body
 * the endpoint defines (`failedBody`, which may be async). Streams: `: keepalive` while the vendor opens or is silent; until the first
 * event, errors are ordinary JSON errors.
 */
export interface LongCallTimes {
  longCallCommitMs: number;
  keepaliveIntervalMs: number;
  logger: Logger;
}

/** An unexpected failure as the client sees it (its cause is logged, never shown). */
export function clientFailure(error: unknown): ServiceError {
  return error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.');
}

/**
 * Runs `work` for a unary answer under the long-call commit. `work` resolves to the body to send
 * (undefined: nothing to send, the client left) and the headers that go with it when they can
 * still be sent; `failedBody` is the body of a failure after the commit.
 */
export async function unaryWithCommit(res: Response, times: LongCallTimes, work: () => Promise<{ body: unknown; headers: Record<string, string> } | undefined>, failedBody: (failure: ServiceError) => unknown): Promise<void> {
  let committed = false;
  let keepalive: NodeJS.Timeout | undefined;
  const commit = setTimeout(() => {
    committed = true;
    res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
    res.flushHeaders();
    res.write(' ');
    keepalive = setInterval(() => res.write(' '), times.keepaliveIntervalMs);
  }, times.longCallCommitMs);
  let outcome: { body: unknown; headers: Record<string, string> } | undefined;
  try {
    outcome = await work();
  } catch (error) {
    if (!committed) throw error;
    // The 200 went out: this line is the failure's only trace (every 5xx at error level).
    const failure = clientFailure(error);
    if (failure.status >= 500) times.logger.error('long call failed after its 200 was committed', { code: failure.code, err: error });
    res.end(JSON.stringify(await failedBody(failure)));
    return;
  } finally {
    clearTimeout(commit);
    if (keepalive) clearInterval(keepalive);
  }
  if (!outcome) return;
  if (committed) {
    res.end(JSON.stringify(outcome.body));
    return;
  }
  for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
  res.status(200).json(outcome.body);
}

/**
 * A server-sent-events response with the keepalive comment, committed on the first write. The
 * headers leave in one socket write with the first events (Node already sends the chunks written
 * in one turn of the event loop together).
 */
export class SseResponse {
  private committed = false;
  private held = false;
  private lastWrite = Date.now();
  private readonly keepalive: NodeJS.Timeout;

  constructor(private readonly res: Response, keepaliveMs: number) {
    this.keepalive = setInterval(() => {
      if (Date.now() - this.lastWrite < keepaliveMs - 5) return;
      this.commit();
      this.write(': keepalive\n\n');
    }, keepaliveMs);
  }

  get isCommitted(): boolean {
    return this.committed;
  }

  /** Sends the 200 and the stream headers (once), with `headers` if they are not sent yet. */
  commit(headers: Record<string, string> = {}): void {
    if (this.committed) return;
    this.committed = true;
    for (const [name, value] of Object.entries(headers)) this.res.setHeader(name, value);
    this.res.status(200);
    this.res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    this.res.setHeader('cache-control', 'no-cache');
    this.res.setHeader('connection', 'keep-alive');
    this.hold();
    this.res.flushHeaders();
  }

  write(text: string): void {
    if (this.res.writableEnded) return;
    this.lastWrite = Date.now();
    this.res.write(text);
  }

  /** Corks the response until this turn's microtasks have run, as Node does for a chunk (ending the response sends at once). */
  private hold(): void {
    if (this.held) return;
    this.held = true;
    this.res.cork();
    process.nextTick(() => {
      this.held = false;
      if (!this.res.writableEnded) this.res.uncork();
    });
  }

  end(text = ''): void {
    clearInterval(this.keepalive);
    if (this.res.writableEnded) return;
    if (text) this.write(text);
    this.res.end();
  }

  /** Stops the keepalive (always call when done). */
  close(): void {
    clearInterval(this.keepalive);
  }
}
