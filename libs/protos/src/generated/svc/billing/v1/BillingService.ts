// Original file: protos/svc/billing/v1/billing_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdmitRequest as _svc_billing_v1_AdmitRequest, AdmitRequest__Output as _svc_billing_v1_AdmitRequest__Output } from '../../../svc/billing/v1/AdmitRequest';
import type { AdmitResponse as _svc_billing_v1_AdmitResponse, AdmitResponse__Output as _svc_billing_v1_AdmitResponse__Output } from '../../../svc/billing/v1/AdmitResponse';
import type { AuthenticateKeyRequest as _svc_billing_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _svc_billing_v1_AuthenticateKeyRequest__Output } from '../../../svc/billing/v1/AuthenticateKeyRequest';
import type { AuthenticateKeyResponse as _svc_billing_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _svc_billing_v1_AuthenticateKeyResponse__Output } from '../../../svc/billing/v1/AuthenticateKeyResponse';
import type { ReleaseRequest as _svc_billing_v1_ReleaseRequest, ReleaseRequest__Output as _svc_billing_v1_ReleaseRequest__Output } from '../../../svc/billing/v1/ReleaseRequest';
import type { ReleaseResponse as _svc_billing_v1_ReleaseResponse, ReleaseResponse__Output as _svc_billing_v1_ReleaseResponse__Output } from '../../../svc/billing/v1/ReleaseResponse';
import type { SettleRequest as _svc_billing_v1_SettleRequest, SettleRequest__Output as _svc_billing_v1_SettleRequest__Output } from '../../../svc/billing/v1/SettleRequest';
import type { SettleResponse as _svc_billing_v1_SettleResponse, SettleResponse__Output as _svc_billing_v1_SettleResponse__Output } from '../../../svc/billing/v1/SettleResponse';
import type { VendorKeysRequest as _svc_billing_v1_VendorKeysRequest, VendorKeysRequest__Output as _svc_billing_v1_VendorKeysRequest__Output } from '../../../svc/billing/v1/VendorKeysRequest';
import type { VendorKeysResponse as _svc_billing_v1_VendorKeysResponse, VendorKeysResponse__Output as _svc_billing_v1_VendorKeysResponse__Output } from '../../../svc/billing/v1/VendorKeysResponse';

/**
 * BillingService owns accounts, organizations, keys, credit and the ledger.
 */
export interface BillingServiceClient extends grpc.Client {
  /**
   * Admission on the hot path: credit, spend limits and Free plan counters; reserves the estimate.
   */
  Admit(argument: _svc_billing_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _svc_billing_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _svc_billing_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _svc_billing_v1_AdmitRequest, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Admission on the hot path: credit, spend limits and Free plan counters; reserves the estimate.
   */
  admit(argument: _svc_billing_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _svc_billing_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _svc_billing_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _svc_billing_v1_AdmitRequest, callback: grpc.requestCallback<_svc_billing_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Looks up a key by the sha256 of its text. Unknown hashes fail with invalid_api_key;
   * revoked, expired and suspended keys are returned so the caller can cache and explain them.
   */
  AuthenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Looks up a key by the sha256 of its text. Unknown hashes fail with invalid_api_key;
   * revoked, expired and suspended keys are returned so the caller can cache and explain them.
   */
  authenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _svc_billing_v1_AuthenticateKeyRequest, callback: grpc.requestCallback<_svc_billing_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Gives back the reservation of an admitted call that ended without a billed answer
   * (vendor failure, no answer, client gone). Unknown or already settled calls are a no-op.
   */
  Release(argument: _svc_billing_v1_ReleaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _svc_billing_v1_ReleaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _svc_billing_v1_ReleaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _svc_billing_v1_ReleaseRequest, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Gives back the reservation of an admitted call that ended without a billed answer
   * (vendor failure, no answer, client gone). Unknown or already settled calls are a no-op.
   */
  release(argument: _svc_billing_v1_ReleaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _svc_billing_v1_ReleaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _svc_billing_v1_ReleaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _svc_billing_v1_ReleaseRequest, callback: grpc.requestCallback<_svc_billing_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Settles usage records into the ledger, idempotent on call_id. The hot path publishes the
   * same records to the `usage.settle` queue; this RPC is the direct route when the queue is down.
   */
  Settle(argument: _svc_billing_v1_SettleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  Settle(argument: _svc_billing_v1_SettleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  Settle(argument: _svc_billing_v1_SettleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  Settle(argument: _svc_billing_v1_SettleRequest, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Settles usage records into the ledger, idempotent on call_id. The hot path publishes the
   * same records to the `usage.settle` queue; this RPC is the direct route when the queue is down.
   */
  settle(argument: _svc_billing_v1_SettleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  settle(argument: _svc_billing_v1_SettleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  settle(argument: _svc_billing_v1_SettleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  settle(argument: _svc_billing_v1_SettleRequest, callback: grpc.requestCallback<_svc_billing_v1_SettleResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The organization's own vendor keys (BYOK), decrypted, by vendor id. Internal only.
   */
  VendorKeys(argument: _svc_billing_v1_VendorKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  VendorKeys(argument: _svc_billing_v1_VendorKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  VendorKeys(argument: _svc_billing_v1_VendorKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  VendorKeys(argument: _svc_billing_v1_VendorKeysRequest, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The organization's own vendor keys (BYOK), decrypted, by vendor id. Internal only.
   */
  vendorKeys(argument: _svc_billing_v1_VendorKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  vendorKeys(argument: _svc_billing_v1_VendorKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  vendorKeys(argument: _svc_billing_v1_VendorKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  vendorKeys(argument: _svc_billing_v1_VendorKeysRequest, callback: grpc.requestCallback<_svc_billing_v1_VendorKeysResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * BillingService owns accounts, organizations, keys, credit and the ledger.
 */
export interface BillingServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Admission on the hot path: credit, spend limits and Free plan counters; reserves the estimate.
   */
  Admit: grpc.handleUnaryCall<_svc_billing_v1_AdmitRequest__Output, _svc_billing_v1_AdmitResponse>;
  
  /**
   * Looks up a key by the sha256 of its text. Unknown hashes fail with invalid_api_key;
   * revoked, expired and suspended keys are returned so the caller can cache and explain them.
   */
  AuthenticateKey: grpc.handleUnaryCall<_svc_billing_v1_AuthenticateKeyRequest__Output, _svc_billing_v1_AuthenticateKeyResponse>;
  
  /**
   * Gives back the reservation of an admitted call that ended without a billed answer
   * (vendor failure, no answer, client gone). Unknown or already settled calls are a no-op.
   */
  Release: grpc.handleUnaryCall<_svc_billing_v1_ReleaseRequest__Output, _svc_billing_v1_ReleaseResponse>;
  
  /**
   * Settles usage records into the ledger, idempotent on call_id. The hot path publishes the
   * same records to the `usage.settle` queue; this RPC is the direct route when the queue is down.
   */
  Settle: grpc.handleUnaryCall<_svc_billing_v1_SettleRequest__Output, _svc_billing_v1_SettleResponse>;
  
  /**
   * The organization's own vendor keys (BYOK), decrypted, by vendor id. Internal only.
   */
  VendorKeys: grpc.handleUnaryCall<_svc_billing_v1_VendorKeysRequest__Output, _svc_billing_v1_VendorKeysResponse>;
  
}

export interface BillingServiceDefinition extends grpc.ServiceDefinition {
  Admit: MethodDefinition<_svc_billing_v1_AdmitRequest, _svc_billing_v1_AdmitResponse, _svc_billing_v1_AdmitRequest__Output, _svc_billing_v1_AdmitResponse__Output>
  AuthenticateKey: MethodDefinition<_svc_billing_v1_AuthenticateKeyRequest, _svc_billing_v1_AuthenticateKeyResponse, _svc_billing_v1_AuthenticateKeyRequest__Output, _svc_billing_v1_AuthenticateKeyResponse__Output>
  Release: MethodDefinition<_svc_billing_v1_ReleaseRequest, _svc_billing_v1_ReleaseResponse, _svc_billing_v1_ReleaseRequest__Output, _svc_billing_v1_ReleaseResponse__Output>
  Settle: MethodDefinition<_svc_billing_v1_SettleRequest, _svc_billing_v1_SettleResponse, _svc_billing_v1_SettleRequest__Output, _svc_billing_v1_SettleResponse__Output>
  VendorKeys: MethodDefinition<_svc_billing_v1_VendorKeysRequest, _svc_billing_v1_VendorKeysResponse, _svc_billing_v1_VendorKeysRequest__Output, _svc_billing_v1_VendorKeysResponse__Output>
}
