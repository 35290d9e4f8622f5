/**
 * The spec's Errors table as data: every code with its HTTP status and `type`.
 * Types the spec does not name follow RULINGS 1 (400/401/404/409/413 invalid_request_error,
 * 402 billing_error, 403 permission_error, 429 rate_limit_error, 5xx server_error).
 */
export type ErrorType = 'invalid_request_error' | 'permission_error' | 'billing_error' | 'rate_limit_error' | 'server_error';

export interface ErrorSpec {
  status: number;
  type: ErrorType;
  /** Spec: `Retry-After: 5` on 502/503/504 when a retry makes sense. */
  retryAfter?: number;
}

const e = (status: number, type: ErrorType, retryAfter?: number): ErrorSpec => (retryAfter ? { status, type, retryAfter } : { status, type });
const bad = e(400, 'invalid_request_error');

export const ERROR_TABLE = {
  invalid_json: bad,
  no_model_allowed: bad,
  missing_messages: bad,
  too_many_messages: bad,
  too_many_tools: bad,
  invalid_value: bad,
  unsupported_parameter: bad,
  invalid_image_url: bad,
  byok_key_invalid: bad,
  upstream_invalid_request: bad,
  unsupported_for_model: bad,
  missing_model: bad,
  missing_field: bad,
  missing_parameter: bad,
  background_unavailable: bad,
  conversation_mismatch: bad,
  conversation_too_large: bad,
  context_length_exceeded: bad,
  not_background: bad,
  batch_too_large: bad,
  batch_not_cancellable: bad,
  invalid_multipart: bad,
  invalid_file: bad,
  invalid_api_key: e(401, 'invalid_request_error'),
  key_expired: e(401, 'invalid_request_error'),
  insufficient_credits: e(402, 'billing_error'),
  insufficient_scope: e(403, 'permission_error'),
  organization_suspended: e(403, 'permission_error'),
  conversations_closed: e(403, 'permission_error'),
  free_tier_model: e(403, 'permission_error'),
  // 403 for the account caps (members, api_keys), 429 for the other Free limits; spec note 1: rate_limit_error
  free_tier_limit: e(429, 'rate_limit_error'),
  model_not_found: e(404, 'invalid_request_error'),
  previous_response_not_found: e(404, 'invalid_request_error'),
  conversation_not_found: e(404, 'invalid_request_error'),
  response_not_found: e(404, 'invalid_request_error'),
  not_found: e(404, 'invalid_request_error'),
  not_cancellable: e(409, 'invalid_request_error'),
  file_in_use: e(409, 'invalid_request_error'),
  payload_too_large: e(413, 'invalid_request_error'),
  file_too_large: e(413, 'invalid_request_error'),
  rate_limit_exceeded: e(429, 'rate_limit_error'),
  quota_exceeded: e(429, 'rate_limit_error'),
  ip_rate_limit_exceeded: e(429, 'rate_limit_error'),
  upstream_rate_limited: e(429, 'rate_limit_error'),
  too_many_open_batches: e(429, 'rate_limit_error'),
  internal_error: e(500, 'server_error'),
  upstream_error: e(502, 'server_error', 5),
  no_provider_available: e(503, 'server_error', 5),
  vendor_unavailable: e(503, 'server_error', 5),
  auth_unavailable: e(503, 'server_error'),
  billing_unavailable: e(503, 'server_error'),
  conversations_unavailable: e(503, 'server_error'),
  // Not in the spec's table: the batch service (files) cannot be reached; named like its siblings.
  files_unavailable: e(503, 'server_error'),
  // Not in the spec's table: the batch service (batches) cannot be reached.
  batches_unavailable: e(503, 'server_error'),
  free_tier_unavailable: e(503, 'server_error'),
  analyzer_daily_cap: e(503, 'server_error'),
  analyzer_unavailable: e(503, 'server_error'),
  upstream_timeout: e(504, 'server_error', 5),
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_TABLE, value);
}
