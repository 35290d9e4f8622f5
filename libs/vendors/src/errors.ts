/**
 * A vendor failure, classified. `retryable` follows the common rule (408, 409, 429, >= 500,
 * network failures and timeouts): the edge tries the next candidate; otherwise it stops.
 * `reason` is a short text safe to show; the vendor's own body never reaches a client.
 * `capacity` is a flex call the vendor refused for lack of flex capacity (spec: Deadline and flex
 * rules 2): the same model can be asked again at once at standard; retryable, so a caller that
 * does not retry at standard falls back as for an unavailable vendor.
 */
export type VendorErrorKind = 'rate_limited' | 'timeout' | 'unavailable' | 'server' | 'invalid_request' | 'auth' | 'bad_response' | 'aborted' | 'capacity';

export class VendorError extends Error {
  override name = 'VendorError';
  constructor(
    readonly kind: VendorErrorKind,
    message: string,
    readonly options: { status?: number; retryAfterSeconds?: number; reason?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'timeout' || this.kind === 'unavailable' || this.kind === 'server' || this.kind === 'bad_response' || this.kind === 'capacity';
  }
}

/** Classifies an HTTP failure status. `reason` is extracted by the adapter from the vendor body. */
export function errorFromStatus(status: number, reason: string | undefined, retryAfter: string | null): VendorError {
  const retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  if (status === 429) return new VendorError('rate_limited', `vendor rate limited (429)`, { status, retryAfterSeconds });
  if (status === 401 || status === 403) return new VendorError('auth', `vendor rejected the key (${status})`, { status, reason });
  if (status === 408) return new VendorError('timeout', 'vendor timed out (408)', { status });
  if (status === 409 || status >= 500) return new VendorError(status === 503 ? 'unavailable' : 'server', `vendor error (${status})`, { status });
  return new VendorError('invalid_request', `vendor rejected the request (${status})`, { status, reason });
}

/** Network-level failures (connection refused, reset, DNS) and aborts. */
export function errorFromFetch(error: unknown, signal?: AbortSignal): VendorError {
  if (signal?.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    if (reason?.name === 'TimeoutError') return new VendorError('timeout', 'vendor did not answer in time', { cause: error });
    return new VendorError('aborted', 'call aborted', { cause: error });
  }
  return new VendorError('unavailable', 'vendor unreachable', { cause: error });
}

/**
 * A failure while reading a stream the vendor had answered (its 200 came): an abort or the attempt's
 * time limit as for a request; anything else (the connection reset or closed mid-body) is an
 * unreadable response, not a vendor that is unavailable.
 */
export function errorFromStream(error: unknown, signal?: AbortSignal): VendorError {
  if (signal?.aborted) return errorFromFetch(error, signal);
  return new VendorError('bad_response', 'vendor stream broke', { cause: error });
}
