/**
 * RabbitMQ for every service: message definitions shared by publishers and consumers, the
 * topology (quorum queue, retry queue, dead queue), publishes with a bounded confirm wait, and
 * consumers that hold messages through a dependency outage and dead-letter only poison. Services
 * use one reconnecting client per process (createAmqpClient); the channel-level functions are
 * what it runs on each connection (and what scripts and tests use directly).
 */
export { defineMessage, type MessageDefinition } from './message';
export { DEAD_LETTER_EXCHANGE, RETRY_EXCHANGE, declareQueue, type QueueOptions } from './topology';
export { DEFAULT_CONFIRM_TIMEOUT_MS, confirmPublish, publish, type PublishOptions } from './publish';
export { consume, consumeBatch, type BatchConsumeOptions, type ConsumeOptions, type Consumer } from './consume';
export { connectAmqp, createAmqpClient, type AmqpClient, type AmqpClientOptions, type AmqpConnection, type ManagedConsumer } from './client';
export { AmqpUnavailableError, ConfirmTimeoutError, HandlerTimeoutError, PoisonMessageError, backoffDelay, errorChain, isConnectionError, type BackoffOptions } from './failures';
export { recordDeadLetter, recordPublishFallback, type DeadLetterAttributes, type DeadLetterReason, type PublishFallbackAttributes } from './metrics';
