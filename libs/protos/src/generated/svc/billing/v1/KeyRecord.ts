// Original file: /work/main/protos/svc/billing/v1/billing_service.proto

import type { Long } from '@grpc/proto-loader';

export interface KeyRecord {
  'key_id'?: (string);
  'organization_id'?: (string);
  'project_id'?: (string);
  'account_id'?: (string);
  'scopes'?: (string)[];
  'allowed_models'?: (string)[];
  'account_disabled_models'?: (string)[];
  'organization_disabled_models'?: (string)[];
  'project_disabled_models'?: (string)[];
  /**
   * Unix milliseconds; 0 when the key never expires.
   */
  'expires_at_ms'?: (number | string | Long);
  'revoked'?: (boolean);
  /**
   * active or suspended
   */
  'organization_status'?: (string);
  /**
   * paid or free
   */
  'plan'?: (string);
  'fallback_policy'?: (string);
  'rpm_limit'?: (number);
  'tpm_limit'?: (number);
  /**
   * 0 when no spend limit.
   */
  'spend_limit_micros'?: (number | string | Long);
  /**
   * day, week, month, life
   */
  'spend_period'?: (string);
  'stop_at_zero'?: (boolean);
  'topped_up'?: (boolean);
}

export interface KeyRecord__Output {
  'key_id': (string);
  'organization_id': (string);
  'project_id': (string);
  'account_id': (string);
  'scopes': (string)[];
  'allowed_models': (string)[];
  'account_disabled_models': (string)[];
  'organization_disabled_models': (string)[];
  'project_disabled_models': (string)[];
  /**
   * Unix milliseconds; 0 when the key never expires.
   */
  'expires_at_ms': (number);
  'revoked': (boolean);
  /**
   * active or suspended
   */
  'organization_status': (string);
  /**
   * paid or free
   */
  'plan': (string);
  'fallback_policy': (string);
  'rpm_limit': (number);
  'tpm_limit': (number);
  /**
   * 0 when no spend limit.
   */
  'spend_limit_micros': (number);
  /**
   * day, week, month, life
   */
  'spend_period': (string);
  'stop_at_zero': (boolean);
  'topped_up': (boolean);
}
