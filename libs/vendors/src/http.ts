import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { errorFromFetch, errorFromStatus, VendorError } from './errors';

/**
 * Keep-alive connection pools for every vendor call of this process, on node:http(s): the
 * leanest client per call here (measured: global fetch adds about 0.4 ms per call), and the one
 * HTTP mocking at the vendor boundary (nock, in the adapters' tests) intercepts. No socket
 * timeout: timeouts are the caller's (an AbortSignal per attempt), so long calls can run (spec,
 * Long calls: an attempt may run up to 600 s, a flex attempt 900 s).
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' }),
};

/** A response body, read once: iterated as bytes (event streams) or parsed whole (readJson). */
export interface VendorBody extends AsyncIterable<Uint8Array> {
  json(): Promise<unknown>;
  text(): Promise<string>;
}

export interface VendorResponse {
  status: number;
  body: VendorBody;
  headers: Record<string, string | string[] | undefined>;
}

/** A body that stops before its end (the connection dropped) is a network failure, not an answer. */
function checkComplete(message: IncomingMessage): void {
  if (!message.complete) throw Object.assign(new Error('connection closed before the response ended'), { code: 'ECONNRESET' });
}

async function readAll(message: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  checkComplete(message);
  return Buffer.concat(chunks).toString('utf8');
}

function bodyOf(message: IncomingMessage): VendorBody {
  return {
    json: async () => JSON.parse(await readAll(message)) as unknown,
    text: () => readAll(message),
    async *[Symbol.asyncIterator]() {
      for await (const chunk of message) yield chunk as Uint8Array;
      checkComplete(message);
    },
  };
}

/** A request body: bytes sent whole (replayable), or a stream sent chunked (sent once). */
export type RequestBody = string | Buffer | AsyncIterable<Uint8Array | string>;

interface Outgoing {
  method: string;
  url: string;
  body?: RequestBody;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

function send(outgoing: Outgoing, fresh: boolean): Promise<IncomingMessage> {
  const { method, url, body, headers, signal } = outgoing;
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const pooled = agents[target.protocol as keyof typeof agents];
  if (!pooled) return Promise.reject(new Error(`unsupported protocol ${target.protocol}`));
  const whole = typeof body === 'string' || Buffer.isBuffer(body);
  const length: Record<string, string | number> = whole ? { 'content-length': Buffer.byteLength(body) } : body === undefined ? {} : { 'transfer-encoding': 'chunked' };
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target,
      // `agent: false`: a connection of its own, outside the pool.
      { method, agent: fresh ? false : pooled, signal, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...length, ...headers } },
      resolve,
    );
    request.on('error', (error) => reject(Object.assign(error, { reusedSocket: request.reusedSocket })));
    if (body === undefined || whole) {
      request.end(body);
      return;
    }
    void (async () => {
      try {
        for await (const chunk of body) {
          if (!request.write(chunk)) await new Promise<void>((done) => request.once('drain', done));
        }
        request.end();
      } catch (error) {
        request.destroy(error as Error);
      }
    })();
  });
}

/**
 * A pooled keep-alive connection the vendor closed while idle, just as this request went out on
 * it (the server's keep-alive timeout; many at once after a pause on either side): reset or
 * closed before any answer. The vendor never read the request, so it is sent again, once, on a
 * new connection — not reported as the vendor being unavailable (which would fall back and count
 * against the model's health for every tenant).
 */
function staleConnection(error: unknown): boolean {
  const failure = error as { reusedSocket?: boolean; code?: string };
  return failure.reusedSocket === true && (failure.code === 'ECONNRESET' || failure.code === 'EPIPE');
}

async function sendOnFreshConnectionIfStale(outgoing: Outgoing): Promise<IncomingMessage> {
  try {
    return await send(outgoing, false);
  } catch (error) {
    // A streamed body was consumed by the first try: it cannot be sent again.
    const replayable = outgoing.body === undefined || typeof outgoing.body === 'string' || Buffer.isBuffer(outgoing.body);
    if (outgoing.signal?.aborted || !replayable || !staleConnection(error)) throw error;
    return send(outgoing, true);
  }
}

/** POSTs JSON; resolves for 2xx, throws a classified VendorError otherwise. */
export function postJson(url: string, payload: unknown, headers: Record<string, string>, signal?: AbortSignal, reasonOf?: (body: unknown) => string | undefined): Promise<VendorResponse> {
  return vendorRequest({ method: 'POST', url, body: JSON.stringify(payload), headers, signal }, reasonOf);
}

/**
 * Any method and body (GET without one, multipart uploads, streamed bodies); resolves for 2xx
 * with the body unread, throws a classified VendorError otherwise.
 */
export async function vendorRequest(outgoing: Outgoing, reasonOf?: (body: unknown) => string | undefined): Promise<VendorResponse> {
  const { signal } = outgoing;
  let message: IncomingMessage;
  try {
    message = await sendOnFreshConnectionIfStale(outgoing);
  } catch (error) {
    // A streamed body that could not be produced (a line the vendor would refuse) keeps its own error.
    if (error instanceof VendorError) throw error;
    throw errorFromFetch(error, signal);
  }
  const status = message.statusCode ?? 0;
  const responseHeaders = message.headers as Record<string, string | string[] | undefined>;
  if (status >= 200 && status < 300) return { status, body: bodyOf(message), headers: responseHeaders };
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readAll(message));
  } catch {
    parsed = undefined;
  }
  const retryAfter = responseHeaders['retry-after'];
  throw errorFromStatus(status, reasonOf?.(parsed), typeof retryAfter === 'string' ? retryAfter : null);
}

/** GETs JSON (the body parsed), with the same classification. */
export async function getJson(url: string, headers: Record<string, string>, signal?: AbortSignal, reasonOf?: (body: unknown) => string | undefined): Promise<unknown> {
  return readJson(await vendorRequest({ method: 'GET', url, headers, signal }, reasonOf), signal);
}

export async function readJson(response: VendorResponse, signal?: AbortSignal): Promise<unknown> {
  try {
    return await response.body.json();
  } catch (error) {
    if (signal?.aborted) throw errorFromFetch(error, signal);
    throw new VendorError('bad_response', 'vendor sent an unreadable response', { cause: error });
  }
}

/** Invalid or empty tool-call arguments become `{}` (spec: arguments is always a JSON string). */
export function normaliseArguments(raw: unknown): string {
  if (raw && typeof raw === 'object') return JSON.stringify(raw);
  if (typeof raw !== 'string' || raw.trim() === '') return '{}';
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return '{}';
  }
}
