import { VendorError } from '@svc/vendors';
import { toClientError } from './vendor-errors';

describe('toClientError (spec: Errors, vendor rows)', () => {
  const down = () => new VendorError('unavailable', 'vendor said 503', { status: 503 });

  it('a provider that is down with nothing to fall back to is 503 vendor_unavailable', () => {
    const error = toClientError(down(), 'vendor-1', { attempts: 1 });
    expect([error.status, error.code, error.headers['x-svc-vendor'], error.headers['retry-after']]).toEqual([503, 'vendor_unavailable', 'vendor-1', '5']);
  });

  it('after every fallback it is a vendor error: 502 upstream_error', () => {
    const error = toClientError(down(), 'vendor-2', { attempts: 3 });
    expect([error.status, error.code, error.headers['x-svc-vendor'], error.headers['retry-after']]).toEqual([502, 'upstream_error', 'vendor-2', '5']);
  });

  it('a stream whose connection drops after it started is 502 upstream_error, as the same unary failure', () => {
    expect(toClientError(down(), 'vendor-1', { afterStart: true }).code).toBe('upstream_error');
  });

  it('timeouts, rate limits and rejected requests keep their own codes', () => {
    expect(toClientError(new VendorError('timeout', 'slow'), 'vendor-1', { attempts: 3 }).code).toBe('upstream_timeout');
    expect(toClientError(new VendorError('rate_limited', 'slow down', { status: 429, retryAfterSeconds: 7 }), 'vendor-1').headers['retry-after']).toBe('7');
    expect(toClientError(new VendorError('invalid_request', 'bad', { status: 400, reason: 'too long' }), 'vendor-1').message).toBe('The vendor rejected the request: too long');
  });
});
