import { VendorError } from '../errors';

interface AnthropicErrorBody {
  type?: unknown;
  error?: { type?: unknown; message?: unknown };
}

/** The reason of an Anthropic error body ({type: 'error', error: {type, message}}), kept short. */
export function anthropicErrorReason(body: unknown): string | undefined {
  const error = (body as AnthropicErrorBody | undefined)?.error;
  if (!error || typeof error !== 'object') return undefined;
  if (typeof error.message === 'string' && error.message !== '') return error.message.slice(0, 300);
  return typeof error.type === 'string' ? error.type : undefined;
}

/**
 * 529 is Anthropic's "overloaded": capacity, not a fault of the request or of the vendor's code,
 * so it is classified like a 503 (the next candidate is tried).
 */
export function refineAnthropicError(error: unknown): unknown {
  if (error instanceof VendorError && error.options.status === 529) return new VendorError('unavailable', 'vendor overloaded (529)', { status: 529 });
  return error;
}

/** An `event: error` inside a stream that already answered 200. */
export function anthropicStreamError(payload: unknown): VendorError {
  const type = (payload as AnthropicErrorBody | undefined)?.error?.type;
  const reason = anthropicErrorReason(payload);
  if (type === 'overloaded_error') return new VendorError('unavailable', 'vendor overloaded mid-stream', { reason });
  if (type === 'rate_limit_error') return new VendorError('rate_limited', 'vendor rate limited mid-stream', { reason });
  return new VendorError('server', 'vendor reported an error mid-stream', { reason });
}
