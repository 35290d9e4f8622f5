import { Agent, type Dispatcher } from 'undici';
import { errorFromFetch, errorFromStatus, VendorError } from './errors';

/**
 * One keep-alive connection pool for every vendor call of this process (undici). Timeouts are
 * the caller's (an AbortSignal per attempt); the pool's own are off so long calls can run
 * (spec, Long calls: an attempt may run up to 600 s, a flex attempt 900 s, while Node's default
 * pool gives up after 300 s without headers).
 */
export const dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 256, headersTimeout: 0, bodyTimeout: 0 });

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

function bodyOf(response: Response): VendorBody {
  return {
    json: () => response.json() as Promise<unknown>,
    text: () => response.text(),
    async *[Symbol.asyncIterator]() {
      if (!response.body) return;
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) yield chunk;
    },
  };
}

/**
 * POSTs JSON; resolves for 2xx, throws a classified VendorError otherwise.
 *
 * The call goes through the global fetch (looked up per call) with the pool above as its
 * dispatcher: Node's fetch is undici underneath and honours it, and HTTP mocking at the fetch
 * boundary (the adapters' tests) sees every call.
 */
export async function postJson(url: string, payload: unknown, headers: Record<string, string>, signal?: AbortSignal, reasonOf?: (body: unknown) => string | undefined): Promise<VendorResponse> {
  let response: Response;
  try {
    // `dispatcher` is Node's extension of RequestInit; its type comes from Node's bundled undici
    // types, a different major than the undici package that built the pool, hence the cast.
    const init = { method: 'POST', dispatcher: dispatcher as unknown, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload), signal };
    response = await fetch(url, init as RequestInit);
  } catch (error) {
    throw errorFromFetch(error, signal);
  }
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  if (response.status >= 200 && response.status < 300) return { status: response.status, body: bodyOf(response), headers: responseHeaders };
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  throw errorFromStatus(response.status, reasonOf?.(parsed), responseHeaders['retry-after'] ?? null);
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
