/**
 * @svc/call: one billed model call, with no HTTP in it. Every caller runs calls through it —
 * the edge's chat completions and embeddings, and the workers' lines and turns.
 * Read run-chat-call.ts first: plan → candidates → attempts → outcome.
 */
export * from './ports';
export * from './types';
export * from './tokens';
export { ChatCall, runChatCall, type Alongside, type UnaryCallResult, type StreamCallResult, type CallStreamEvent, type StreamDone, type ServedBy } from './run-chat-call';
export { runEmbeddingsCall, type EmbeddingsCallInput, type EmbeddingsCallResult, type EmbeddingsCallDeps } from './run-embeddings-call';
export { CallLedger } from './ledger';
export { routeMessages, type CallPlan } from './plan';
export { MAX_ATTEMPTS, type Candidate } from './candidates';
export { AttemptDeadline, attemptLimitMs, noAnswerOf, StopCutter, type Attempt, type AnswerEvent } from './attempts';
export { BASELINE_CALLS_NEEDED, admissionKey, admissionOf, baselineMicros, costFields, estimateCall, planObject, usageBillingFields, type CallAdmission, type CallEstimate, type CostFields } from './billing';
export { parseChatRequest, type ChatRequestInput, type ChatImage, type ParseChatOptions } from './request/chat-request';
export { prepareForModel, cutAtStop, DEFAULT_MAX_TOKENS, type Prepared } from './prepare';
export * from './cache/cache-policy';
export { MemoryCacheState } from './cache/cache-policy.memory';
export { RedisCacheState, cacheStateKeys } from './cache/cache-policy.redis';
export { ProviderHealth, type ProviderHealthOptions } from './provider-health';
export { createOwnKeys, type OwnKeys, type OwnKeysOptions } from './own-keys';
export { toClientError } from './vendor-errors';
export { measureAttempt, recordFallback, vendorOutcome, type AttemptObservation, type AttemptObserver } from './attempt-metrics';
export { compact, renderRouting, renderUsage, renderMessage, renderCompletion, renderChunk, renderUsageChunk, type CompletionHead } from './render/chat';
export { ENCODING_FORMATS, renderEmbeddings, float32LeBase64, decodeFloat32LeBase64, type EncodingFormat, type EmbeddingSvc } from './render/embeddings';
export { parseResponsesRequest, parseInputItems, parseMetadata, refuseUnstorableText, parseRetentionDays, DEFAULT_MAX_OUTPUT_TOKENS, type ResponsesInput, type ResponseInputItem } from './request/responses-request';
export { withHistory, type HistoryItem } from './responses/history';
export { answeredTurn, isIncomplete, turnSvc, type TurnContext } from './responses/turn';
export { ResponsesStreamWriter, replayEvents, outputItems, responseObject, responseUsage, servedHead, streamItemId, withStoredIds, type OutputItem, type ResponseHead, type ResponseStatus } from './render/responses';
export type { Usage } from '@svc/vendors';
export * from './decision';
export { contextWindowFor, planCompaction, itemTokens, COMPACTION_TARGET, COMPACTION_AHEAD, KEEP_RECENT_ITEMS, SUMMARY_INSTRUCTIONS } from './responses/compaction';
export { planTier, requestedTier, FLEX_DEADLINE_MS, BATCH_DEADLINE_MS, FLEX_ATTEMPT_MS, type TierPlan, type TierFallback } from './tier';
export * from './split';
export { batchBoundModel, batchProtocolOf, batchLineOutcome, checkQueuedCredit, poolLinePolicy, prepareBatchLine, type BatchLinePlan, type PoolGroup, type PoolRow } from './responses/pool-line';
