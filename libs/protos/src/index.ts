import { resolve, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType as RouterProto } from './generated/router_service';
import type { ProtoGrpcType as BillingProto } from './generated/billing_service';
import type { ProtoGrpcType as ConversationsProto } from './generated/conversations_service';
import type { ProtoGrpcType as BatchProto } from './generated/batch_service';

/**
 * Loads the service definitions from protos/ at run time with the same options the types in
 * ./generated were generated with (scripts/gen-protos.mjs), so types and wire agree.
 */
export const LOADER_OPTIONS: protoLoader.Options = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true };

/** protos/ at the repository root (images copy it to /app/protos). */
export const DEFAULT_PROTOS_DIR = resolve(__dirname, '..', '..', '..', 'protos');

function load<T>(file: string, protosDir: string): T {
  const definition = protoLoader.loadSync(join(protosDir, file), { ...LOADER_OPTIONS, includeDirs: [protosDir] });
  return grpc.loadPackageDefinition(definition) as unknown as T;
}

export function loadRouterProto(protosDir = DEFAULT_PROTOS_DIR) {
  return load<RouterProto>('svc/router/v1/router_service.proto', protosDir).svc.router.v1;
}
export function loadBillingProto(protosDir = DEFAULT_PROTOS_DIR) {
  return load<BillingProto>('svc/billing/v1/billing_service.proto', protosDir).svc.billing.v1;
}
export function loadConversationsProto(protosDir = DEFAULT_PROTOS_DIR) {
  return load<ConversationsProto>('svc/conversations/v1/conversations_service.proto', protosDir).svc.conversations.v1;
}
export function loadBatchProto(protosDir = DEFAULT_PROTOS_DIR) {
  return load<BatchProto>('svc/batch/v1/batch_service.proto', protosDir).svc.batch.v1;
}

export type { RouterServiceClient, RouterServiceHandlers } from './generated/svc/router/v1/RouterService';
export type { RouteRequest, RouteRequest__Output } from './generated/svc/router/v1/RouteRequest';
export type { RouteResponse, RouteResponse__Output } from './generated/svc/router/v1/RouteResponse';
export type { Routing, Routing__Output } from './generated/svc/router/v1/Routing';
export type { Candidate, Candidate__Output } from './generated/svc/router/v1/Candidate';
export type { ModelAccess, ModelAccess__Output } from './generated/svc/router/v1/ModelAccess';
export type { BillingServiceClient, BillingServiceHandlers } from './generated/svc/billing/v1/BillingService';
export type { KeyRecord, KeyRecord__Output } from './generated/svc/billing/v1/KeyRecord';
export type { AdmitRequest, AdmitRequest__Output } from './generated/svc/billing/v1/AdmitRequest';
export type { AdmitResponse, AdmitResponse__Output } from './generated/svc/billing/v1/AdmitResponse';
export type { UsageRecord, UsageRecord__Output } from './generated/svc/billing/v1/UsageRecord';
export type { SettleRequest, SettleRequest__Output } from './generated/svc/billing/v1/SettleRequest';
export type { SettleResponse__Output } from './generated/svc/billing/v1/SettleResponse';
export type { AuthenticateKeyResponse__Output } from './generated/svc/billing/v1/AuthenticateKeyResponse';
export type { ReleaseRequest, ReleaseRequest__Output } from './generated/svc/billing/v1/ReleaseRequest';
export type { ReleaseResponse, ReleaseResponse__Output } from './generated/svc/billing/v1/ReleaseResponse';
export type { VendorKeysRequest, VendorKeysRequest__Output } from './generated/svc/billing/v1/VendorKeysRequest';
export type { VendorKeysResponse, VendorKeysResponse__Output } from './generated/svc/billing/v1/VendorKeysResponse';
export type { ConversationsServiceClient, ConversationsServiceHandlers } from './generated/svc/conversations/v1/ConversationsService';
export type { BatchServiceClient, BatchServiceHandlers } from './generated/svc/batch/v1/BatchService';
export type { UploadFileRequest, UploadFileRequest__Output } from './generated/svc/batch/v1/UploadFileRequest';
export type { FileReply, FileReply__Output } from './generated/svc/batch/v1/FileReply';
export type { FileContentChunk, FileContentChunk__Output } from './generated/svc/batch/v1/FileContentChunk';
