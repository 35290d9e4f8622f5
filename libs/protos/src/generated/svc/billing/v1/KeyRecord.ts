// Original file: protos/svc/billing/v1/billing_service.proto

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
  /**
   * The organization is its account's first: it has the Free allowance (a person's second
   * organization has none, spec: 402).
   */
  'free_allowance'?: (boolean);
  /**
   * Account id of the member the key belongs to.
   */
  'member_id'?: (string);
  /**
   * The member's monthly spend quota in micros; 0 when none.
   */
  'member_quota_micros'?: (number | string | Long);
  /**
   * Vendors (vendor-1 .. vendor-8) for which the organization has its own key.
   */
  'byok_vendors'?: (string)[];
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
  /**
   * The organization is its account's first: it has the Free allowance (a person's second
   * organization has none, spec: 402).
   */
  'free_allowance': (boolean);
  /**
   * Account id of the member the key belongs to.
   */
  'member_id': (string);
  /**
   * The member's monthly spend quota in micros; 0 when none.
   */
  'member_quota_micros': (number);
  /**
   * Vendors (vendor-1 .. vendor-8) for which the organization has its own key.
   */
  'byok_vendors': (string)[];
}
