/**
 * gRPC clients of the router and billing services for any service that runs calls (the edge and
 * the workers), and the call pipeline's ports over them. Wire messages are mapped to the
 * pipeline's domain shapes here, where the clients are built.
 */
export { createBackends, type Backends } from './clients';
export { routerPort, billingPort } from './ports';
export { callConfigFields, createCallRuntime, jevSettingsOf, vendorKeysOf, type CallConfig, type CallRuntime } from './call-runtime';
export { createUsageSink, type UsageRecordInput, type UsageSink, type UsageOutbox, type UsageDelivery, type DurableUsageSink, type DurableUsageSinkOptions } from './usage-sink';
export { createUsageOutbox } from './usage-outbox';
export { createConversationsClient, historyAfterTurn, type ConversationsClient, type ConversationItem, type ConversationObject, type ConversationResult, type ItemList, type ThreadHistory, type CompleteTurnQuery, type CompletedTurn, type StoredResponse, type UpdatedResponse, type StoredOutputId, type ResponseObject, type PoolRow, type PoolGroup } from './conversations-client';
export { createStatusRecorder, parseRegionalComponents, type StatusRecorder, type RegionalComponent } from './status/measurements';
export { createStatusService, type StatusService } from './status/status-service';
export { prometheusReader } from './status/prometheus';
export { statusComponents, type StatusDocument } from './status/document';
export { createBatchClient, type BatchClient, type BatchObject, type FileObject, type FileList, type FileUpload, type FileContent } from './batch-client';
