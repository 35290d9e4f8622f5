import './instrumentation';
import { createServer, type Server } from 'node:http';
import { createLogger } from '@svc/logger';
import { createAmqpClient } from '@svc/amqp';
import { conversationCompact, usageSettle } from '@svc/messages';
import { createRedis } from '@svc/redis';
import { createConversationsClient, createUsageOutbox, createUsageSink, type DurableUsageSink } from '@svc/backends';
import { compactionHandler } from './jobs/compact';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createWorkerCalls } from './calls/worker-calls';

/**
 * Workers consume RabbitMQ queues (batch lines, background responses, compaction, retention
 * sweeps) chosen by WORKER_QUEUES. One reconnecting broker connection (libs/amqp) serves every
 * consumer and publisher: a broker restart is waited out, never a reason to exit; /readyz is
 * 503 while it is away.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'workers', level: config.LOG_LEVEL });
  let ready = false;
  const amqp = createAmqpClient({ url: config.AMQP_URL, logger, name: 'workers', queues: [usageSettle.name] });
  // The call pipeline the queue consumers run their model calls through (the edge's, same wiring).
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'workers' });
  // Usage goes the edge's way: the queue, then the outbox, then billing.Settle (libs/backends usage-sink.ts).
  const outbox = config.DATABASE_URL ? createUsageOutbox({ databaseUrl: config.DATABASE_URL, applicationName: 'svc-workers-usage-outbox' }) : undefined;
  let usage: DurableUsageSink | undefined;
  const calls = createWorkerCalls(config, { logger, redis, usage: (backends) => (usage = createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), outbox, settleDirect: (records) => backends.settle({ records }), logger })) });
  const conversations = createConversationsClient({ address: config.CONVERSATIONS_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  // Queues this replica consumes: WORKER_QUEUES, or every queue when it is empty.
  const queues = config.WORKER_QUEUES.split(',').map((queue) => queue.trim()).filter(Boolean);
  const consumes = (queue: string) => queues.length === 0 || queues.includes(queue);
  if (consumes(conversationCompact.name)) {
    amqp.consume(conversationCompact, compactionHandler({ calls, conversations, redis, logger }), { logger, prefetch: 4, handlerTimeoutMs: 5 * 60_000, describe: (job) => ({ job_id: job.job_id, conversation_id: job.conversation_id }) });
  }
  const health: Server = createServer((req, res) => {
    const ok = req.url === '/healthz' || (req.url === '/readyz' && ready && amqp.isReady());
    res.writeHead(ok ? 200 : req.url === '/readyz' ? 503 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
  });
  await new Promise<void>((resolve) => health.listen(config.WORKERS_HEALTH_PORT, config.WORKERS_HOST, resolve));
  ready = true;
  logger.info('listening', { port: config.WORKERS_HEALTH_PORT, queues: config.WORKER_QUEUES.split(',').filter(Boolean) });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'not ready', run: async () => void (ready = false) },
    { name: 'usage records held in memory', run: async () => usage?.close() },
    { name: 'calls', run: async () => {
      calls.close();
      conversations.close();
    } },
    { name: 'amqp', run: () => amqp.close() },
    { name: 'usage outbox', run: async () => outbox?.close() },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'health', run: () => new Promise<void>((resolve) => health.close(() => resolve())) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('workers', main);
