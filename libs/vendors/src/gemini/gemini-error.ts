import { VendorError } from '../errors';

interface GeminiErrorBody {
  error?: { code?: unknown; message?: unknown; status?: unknown; details?: unknown };
}

function details(body: unknown): Array<Record<string, unknown>> {
  const list = (body as GeminiErrorBody | undefined)?.error?.details;
  return Array.isArray(list) ? list.filter((item): item is Record<string, unknown> => !!item && typeof item === 'object') : [];
}

/** The reason of a Gemini error body ({error: {code, message, status}}), kept short. */
export function geminiErrorReason(body: unknown): string | undefined {
  const error = (body as GeminiErrorBody | undefined)?.error;
  if (!error || typeof error !== 'object') return undefined;
  if (typeof error.message === 'string' && error.message !== '') return error.message.slice(0, 300);
  return typeof error.status === 'string' ? error.status : undefined;
}

/** RetryInfo.retryDelay ("37s", "1.5s") in whole seconds, at least 1. */
function retryDelaySeconds(body: unknown): number | undefined {
  for (const detail of details(body)) {
    if (detail['@type'] !== 'type.googleapis.com/google.rpc.RetryInfo' || typeof detail.retryDelay !== 'string') continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay);
    if (match) return Math.max(1, Math.ceil(Number(match[1])));
  }
  return undefined;
}

/**
 * Gemini-specific classification on top of the status: a rejected key answers 400
 * INVALID_ARGUMENT with reason API_KEY_INVALID (an auth failure, not a bad request), and a 429
 * carries its wait in RetryInfo rather than (or besides) a Retry-After header.
 */
export function refineGeminiError(error: unknown, body: unknown): unknown {
  if (!(error instanceof VendorError)) return error;
  const status = error.options.status;
  if (status === 400 && details(body).some((detail) => detail.reason === 'API_KEY_INVALID')) {
    return new VendorError('auth', 'vendor rejected the key (400)', { status, reason: geminiErrorReason(body) });
  }
  if (error.kind === 'rate_limited' && error.options.retryAfterSeconds === undefined) {
    const wait = retryDelaySeconds(body);
    if (wait !== undefined) return new VendorError('rate_limited', error.message, { ...error.options, retryAfterSeconds: wait });
  }
  return error;
}

/** An {error} chunk inside a stream that already answered 200. */
export function geminiStreamError(body: unknown): VendorError {
  const code = (body as GeminiErrorBody | undefined)?.error?.code;
  const reason = geminiErrorReason(body);
  if (code === 429) return new VendorError('rate_limited', 'vendor rate limited mid-stream', { reason, retryAfterSeconds: retryDelaySeconds(body) });
  if (code === 503) return new VendorError('unavailable', 'vendor unavailable mid-stream', { reason });
  return new VendorError('server', 'vendor reported an error mid-stream', { reason });
}
