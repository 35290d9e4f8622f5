import type { Request, Response } from 'express';
import type { Socket } from 'node:net';

export interface VendorError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A header's value as one string ('' counts as absent). */
export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

/** Non-negative number from a header, or the fallback when absent or malformed. */
export function numericHeader(req: Request, name: string, fallback: number): number {
  const text = header(req, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function flagHeader(req: Request, name: string): boolean {
  const text = header(req, name)?.toLowerCase();
  return text === '1' || text === 'true' || text === 'yes';
}

/** Aborts when the client goes away before the response is complete. */
export function abortOnClose(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

export type JsonBody = { ok: true; value: unknown } | { ok: false };

export function parseJsonBody(req: Request): JsonBody {
  const raw: unknown = req.body;
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.status(status).set(headers).type('application/json').send(JSON.stringify(body));
}

export function sendError(res: Response, error: VendorError): void {
  sendJson(res, error.status, error.body, error.headers);
}

/**
 * Ends the connection without finishing the HTTP message: the client sees a body cut short.
 * The socket is half-closed after the last write is flushed (a reset could lose bytes the
 * client has not read yet), then destroyed if the client does not close its side.
 */
export function cutConnection(res: Response): void {
  const socket: Socket | null = res.socket;
  if (!socket || socket.destroyed) return;
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** res.write that resolves once the bytes are handed to the socket. */
export function write(res: Response, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve();
    res.write(data, () => resolve());
  });
}

/** Unary response cut mid-body: the full Content-Length is promised, half of the body is sent. */
export async function sendCutBody(res: Response, status: number, body: string, headers: Record<string, string> = {}): Promise<void> {
  const bytes = Buffer.from(body);
  res.status(status).set(headers).set('content-type', 'application/json').set('content-length', String(bytes.length));
  await new Promise<void>((resolve) => res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => resolve()));
  cutConnection(res);
}
