import { Metadata, status } from '@grpc/grpc-js';
import { ERROR_TABLE, ServiceError, internalError, toGrpcError, fromGrpcError } from './index';

describe('error table', () => {
  it('follows RULINGS 1 for types by status', () => {
    for (const [code, spec] of Object.entries(ERROR_TABLE)) {
      if (code === 'free_tier_limit') continue;
      const expected = { 400: 'invalid_request_error', 401: 'invalid_request_error', 402: 'billing_error', 403: 'permission_error', 404: 'invalid_request_error', 409: 'invalid_request_error', 413: 'invalid_request_error', 429: 'rate_limit_error' }[spec.status as 400] ?? 'server_error';
      expect([code, spec.type]).toEqual([code, expected]);
    }
  });

  it.each([
    ['upstream_error', 502, '5'],
    ['no_provider_available', 503, '5'],
    ['vendor_unavailable', 503, '5'],
    ['upstream_timeout', 504, '5'],
  ] as const)('%s is %d with Retry-After %s', (code, httpStatus, retryAfter) => {
    const error = new ServiceError(code, 'x');
    expect(error.status).toBe(httpStatus);
    expect(error.headers['retry-after']).toBe(retryAfter);
  });

  it('renders the envelope', () => {
    expect(new ServiceError('invalid_value', 'temperature must be between 0 and 2.', { param: 'temperature' }).toBody()).toEqual({
      error: { message: 'temperature must be between 0 and 2.', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' },
    });
  });

  it('keeps the cause out of a 500 body', () => {
    const body = JSON.stringify(internalError(new Error('db password wrong')).toBody());
    expect(body).not.toContain('password');
    expect(JSON.parse(body).error.code).toBe('internal_error');
  });

  it('free_tier_limit is 429 by default and 403 when asked, rate_limit_error either way', () => {
    expect(new ServiceError('free_tier_limit', 'x').status).toBe(429);
    const caps = new ServiceError('free_tier_limit', 'x', { status: 403, param: 'api_keys' });
    expect([caps.status, caps.type]).toEqual([403, 'rate_limit_error']);
  });
});

describe('gRPC mapping', () => {
  it('carries code, param, status and headers across a process boundary', () => {
    const original = new ServiceError('free_tier_limit', 'Free limit reached.', { status: 403, param: 'members', headers: { 'x-svc-free-limit': 'members' } });
    const payload = toGrpcError(original);
    expect(payload.code).toBe(status.PERMISSION_DENIED);
    const back = fromGrpcError({ code: payload.code, details: payload.details, metadata: payload.metadata }, 'billing_unavailable');
    expect(back).toMatchObject({ code: 'free_tier_limit', status: 403, param: 'members', message: 'Free limit reached.' });
    expect(back.headers['x-svc-free-limit']).toBe('members');
  });

  it('turns a call without a code into the dependency 503', () => {
    const back = fromGrpcError({ code: status.UNAVAILABLE, details: 'connect ECONNREFUSED', metadata: new Metadata() }, 'auth_unavailable');
    expect([back.status, back.code]).toEqual([503, 'auth_unavailable']);
    expect(back.message).not.toContain('ECONNREFUSED');
  });

  it('maps unknown thrown values to internal_error', () => {
    const payload = toGrpcError(new Error('boom'));
    expect(payload.code).toBe(status.INTERNAL);
    expect(payload.details).not.toContain('boom');
  });
});
