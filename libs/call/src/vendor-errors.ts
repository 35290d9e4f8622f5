import { ServiceError } from '@svc/errors';
import type { VendorError } from '@svc/vendors';

/**
 * The client-facing error once every option is exhausted (spec: Errors, vendor rows). The
 * vendor's own body never reaches the client; only its short reason on a 400.
 * A vendor that is down is 503 `vendor_unavailable` only where one provider was asked and it is
 * not currently available (a named model with nothing to fall back to); once fallbacks were
 * tried, or a stream broke after it started, it is a vendor error: 502 `upstream_error`. The
 * vendor's error is the refusal's cause: the error-level line of a 5xx names what failed (kind,
 * status), never shown to the client.
 */
export function toClientError(error: VendorError, vendorId: string, context: { attempts?: number; afterStart?: boolean } = {}): ServiceError {
  const headers = { 'x-svc-vendor': vendorId };
  switch (error.kind) {
    case 'rate_limited':
      return new ServiceError('upstream_rate_limited', 'The vendor is limiting requests and every fallback is exhausted. Please retry shortly.', {
        headers: { ...headers, 'retry-after': String(Math.max(1, error.options.retryAfterSeconds ?? 5)) },
        cause: error,
      });
    case 'timeout':
      return new ServiceError('upstream_timeout', 'The vendor did not answer in time.', { headers, cause: error });
    case 'unavailable':
      if ((context.attempts ?? 1) > 1 || context.afterStart) return new ServiceError('upstream_error', 'The vendor returned an error or an unreadable response.', { headers, cause: error });
      return new ServiceError('vendor_unavailable', 'The vendor is not currently available.', { headers, cause: error });
    case 'invalid_request':
      return new ServiceError('upstream_invalid_request', `The vendor rejected the request${error.options.reason ? `: ${error.options.reason}` : '.'}`, { headers, cause: error });
    default:
      return new ServiceError('upstream_error', 'The vendor returned an error or an unreadable response.', { headers, cause: error });
  }
}
