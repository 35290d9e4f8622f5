import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdmitRequest as _svc_billing_v1_AdmitRequest, AdmitRequest__Output as _svc_billing_v1_AdmitRequest__Output } from './svc/billing/v1/AdmitRequest';
import type { AdmitResponse as _svc_billing_v1_AdmitResponse, AdmitResponse__Output as _svc_billing_v1_AdmitResponse__Output } from './svc/billing/v1/AdmitResponse';
import type { AuthenticateKeyRequest as _svc_billing_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _svc_billing_v1_AuthenticateKeyRequest__Output } from './svc/billing/v1/AuthenticateKeyRequest';
import type { AuthenticateKeyResponse as _svc_billing_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _svc_billing_v1_AuthenticateKeyResponse__Output } from './svc/billing/v1/AuthenticateKeyResponse';
import type { BillingServiceClient as _svc_billing_v1_BillingServiceClient, BillingServiceDefinition as _svc_billing_v1_BillingServiceDefinition } from './svc/billing/v1/BillingService';
import type { KeyRecord as _svc_billing_v1_KeyRecord, KeyRecord__Output as _svc_billing_v1_KeyRecord__Output } from './svc/billing/v1/KeyRecord';
import type { ReleaseRequest as _svc_billing_v1_ReleaseRequest, ReleaseRequest__Output as _svc_billing_v1_ReleaseRequest__Output } from './svc/billing/v1/ReleaseRequest';
import type { ReleaseResponse as _svc_billing_v1_ReleaseResponse, ReleaseResponse__Output as _svc_billing_v1_ReleaseResponse__Output } from './svc/billing/v1/ReleaseResponse';
import type { SettleRequest as _svc_billing_v1_SettleRequest, SettleRequest__Output as _svc_billing_v1_SettleRequest__Output } from './svc/billing/v1/SettleRequest';
import type { SettleResponse as _svc_billing_v1_SettleResponse, SettleResponse__Output as _svc_billing_v1_SettleResponse__Output } from './svc/billing/v1/SettleResponse';
import type { UsageRecord as _svc_billing_v1_UsageRecord, UsageRecord__Output as _svc_billing_v1_UsageRecord__Output } from './svc/billing/v1/UsageRecord';
import type { VendorKeysRequest as _svc_billing_v1_VendorKeysRequest, VendorKeysRequest__Output as _svc_billing_v1_VendorKeysRequest__Output } from './svc/billing/v1/VendorKeysRequest';
import type { VendorKeysResponse as _svc_billing_v1_VendorKeysResponse, VendorKeysResponse__Output as _svc_billing_v1_VendorKeysResponse__Output } from './svc/billing/v1/VendorKeysResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  svc: {
    billing: {
      v1: {
        AdmitRequest: MessageTypeDefinition<_svc_billing_v1_AdmitRequest, _svc_billing_v1_AdmitRequest__Output>
        AdmitResponse: MessageTypeDefinition<_svc_billing_v1_AdmitResponse, _svc_billing_v1_AdmitResponse__Output>
        AuthenticateKeyRequest: MessageTypeDefinition<_svc_billing_v1_AuthenticateKeyRequest, _svc_billing_v1_AuthenticateKeyRequest__Output>
        AuthenticateKeyResponse: MessageTypeDefinition<_svc_billing_v1_AuthenticateKeyResponse, _svc_billing_v1_AuthenticateKeyResponse__Output>
        /**
         * BillingService owns accounts, organizations, keys, credit and the ledger.
         */
        BillingService: SubtypeConstructor<typeof grpc.Client, _svc_billing_v1_BillingServiceClient> & { service: _svc_billing_v1_BillingServiceDefinition }
        KeyRecord: MessageTypeDefinition<_svc_billing_v1_KeyRecord, _svc_billing_v1_KeyRecord__Output>
        ReleaseRequest: MessageTypeDefinition<_svc_billing_v1_ReleaseRequest, _svc_billing_v1_ReleaseRequest__Output>
        ReleaseResponse: MessageTypeDefinition<_svc_billing_v1_ReleaseResponse, _svc_billing_v1_ReleaseResponse__Output>
        SettleRequest: MessageTypeDefinition<_svc_billing_v1_SettleRequest, _svc_billing_v1_SettleRequest__Output>
        SettleResponse: MessageTypeDefinition<_svc_billing_v1_SettleResponse, _svc_billing_v1_SettleResponse__Output>
        UsageRecord: MessageTypeDefinition<_svc_billing_v1_UsageRecord, _svc_billing_v1_UsageRecord__Output>
        VendorKeysRequest: MessageTypeDefinition<_svc_billing_v1_VendorKeysRequest, _svc_billing_v1_VendorKeysRequest__Output>
        VendorKeysResponse: MessageTypeDefinition<_svc_billing_v1_VendorKeysResponse, _svc_billing_v1_VendorKeysResponse__Output>
      }
    }
  }
}

