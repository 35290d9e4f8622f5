import './instrumentation';
import { createServer, type Server } from 'node:http';
import { createLogger, throttledWarning } from '@svc/logger';
import { createAmqpClient, isConnectionError, type ManagedConsumer } from '@svc/amqp';
import { BATCH_CANCEL_CHANNEL, RESPONSE_CANCEL_CHANNEL, batchLineRun, batchStart, conversationCompact, responseRun, usageSettle } from '@svc/messages';
import { createRedis } from '@svc/redis';
import { createBatchClient, createConversationsClient, createUsageOutbox, createUsageSink, type DurableUsageSink } from '@svc/backends';
import { catalog } from '@svc/catalog';
import { LineUsageCapture, RunningBatches, batchLinesHandler, batchStartHandler, isBatchOutage } from './jobs/batch';
import { compactionHandler } from './jobs/compact';
import { RunningTurns, isResponseRunOutage, responseRunHandler } from './jobs/respond';
import { POOL_QUEUE, ResponsePool } from './jobs/pool';
import { drainBudgetMs, onShutdown, run, withTimeout } from '@svc/lifecycle';
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
  const amqp = createAmqpClient({ url: config.AMQP_URL, logger, name: 'workers', queues: [usageSettle.name, batchLineRun.name] });
  // The call pipeline the queue consumers run their model calls through (the edge's, same wiring).
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'workers' });
  redis.on('error', throttledWarning(logger, 'redis connection failed: commands wait for the reconnect'));
  // Usage goes the edge's way: the queue, then the outbox, then billing.Settle (libs/backends usage-sink.ts).
  const outbox = config.DATABASE_URL ? createUsageOutbox({ databaseUrl: config.DATABASE_URL, applicationName: 'svc-workers-usage-outbox' }) : undefined;
  let usage: DurableUsageSink | undefined;
  // Batch lines hand their usage record to their line's commit (jobs/batch.ts); every other call's goes on.
  const capture = new LineUsageCapture(() => usage!);
  const calls = createWorkerCalls(config, {
    logger,
    redis,
    usage: (backends) => {
      usage = createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), outbox, settleDirect: (records) => backends.settle({ records }), logger });
      return capture;
    },
  });
  const batches = createBatchClient({ address: config.BATCH_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  const conversations = createConversationsClient({ address: config.CONVERSATIONS_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  // Queues this replica consumes: WORKER_QUEUES, or every queue when it is empty.
  const queues = config.WORKER_QUEUES.split(',').map((queue) => queue.trim()).filter(Boolean);
  const consumes = (queue: string) => queues.length === 0 || queues.includes(queue);
  const consumers: ManagedConsumer[] = [];
  if (consumes(conversationCompact.name)) {
    consumers.push(amqp.consume(conversationCompact, compactionHandler({ calls, conversations, redis, logger }), { logger, prefetch: 4, handlerTimeoutMs: 5 * 60_000, describe: (job) => ({ job_id: job.job_id, conversation_id: job.conversation_id }) }));
  }
  // Background responses: a flex attempt may take 900 s, so a turn may run for up to about 20 minutes.
  const running = new RunningTurns();
  const runningBatches = new RunningBatches();
  // Cancels announced over Redis pub/sub: background responses (the edge) and batches (the edge, once `cancelling`).
  const responseCancels = `${config.REDIS_KEY_PREFIX}${RESPONSE_CANCEL_CHANNEL}`;
  const batchCancels = `${config.REDIS_KEY_PREFIX}${BATCH_CANCEL_CHANNEL}`;
  const channels = [...(consumes(responseRun.name) ? [responseCancels] : []), ...(consumes(batchLineRun.name) ? [batchCancels] : [])];
  let cancels: ReturnType<typeof createRedis> | undefined;
  if (channels.length > 0) {
    cancels = createRedis({ url: config.REDIS_URL, name: 'workers-cancels' });
    cancels.on('error', throttledWarning(logger, 'redis cancel subscription failed: reconnecting (running turns and batch chunks also check their status every few seconds)'));
    await cancels.subscribe(...channels);
    cancels.on('message', (channel: string, id: string) => {
      if (channel === responseCancels && running.cancel(id)) logger.info('background response cancelled: cutting its call', { response_id: id });
      if (channel === batchCancels && runningBatches.cancel(id)) logger.info('batch cancelling: its lines not started are cancelled and calls in flight cut', { batch_id: id });
    });
  }
  if (consumes(responseRun.name)) {
    consumers.push(amqp.consume(responseRun, responseRunHandler({ calls, conversations, running, logger }), {
      logger,
      // Turns wait on the vendor most of the time: many in flight per worker (RESPONSE_RUN_PREFETCH).
      prefetch: config.RESPONSE_RUN_PREFETCH,
      handlerTimeoutMs: 20 * 60_000,
      isOutage: (error) => isResponseRunOutage(error, isConnectionError),
      describe: (job) => ({ response_id: job.response_id, organization_id: job.organization_id }),
    }));
  }
  // The vendor-batch pool of batch-bound background responses (state in Postgres: any replica flushes and polls).
  let pool: ResponsePool | undefined;
  if (consumes(POOL_QUEUE)) {
    pool = new ResponsePool({
      call: calls.runtime.deps,
      conversations,
      logger,
      settings: { maxLines: config.POOL_MAX_LINES, maxAgeMs: config.POOL_MAX_AGE_MS, claimLeaseMs: config.POOL_CLAIM_LEASE_MS, flushIntervalMs: config.POOL_FLUSH_INTERVAL_MS, pollIntervalMs: config.POOL_POLL_INTERVAL_MS },
    });
    pool.start();
  }
  // Batches: validation and start (batch.start), then the lines in chunks (batch.line.run).
  if (consumes(batchStart.name)) {
    consumers.push(amqp.consume(
      batchStart,
      batchStartHandler({
        batches,
        catalog,
        billing: calls.runtime.deps.billing,
        authenticateKey: (keyHash) => calls.runtime.backends.authenticateKey(keyHash) as never,
        publishChunk: (job) => amqp.publish(batchLineRun, job),
        logger,
        chunkLines: config.BATCH_CHUNK_LINES,
      }),
      { logger, prefetch: 2, handlerTimeoutMs: 30 * 60_000, isOutage: (error) => isBatchOutage(error, isConnectionError), describe: (job) => ({ batch_id: job.batch_id, organization_id: job.organization_id }) },
    ));
  }
  if (consumes(batchLineRun.name)) {
    consumers.push(amqp.consume(
      batchLineRun,
      batchLinesHandler({
        calls,
        capture,
        batches,
        catalog,
        logger,
        concurrency: config.BATCH_LINE_CONCURRENCY,
        running: runningBatches,
      }),
      { logger, prefetch: config.BATCH_CHUNK_PREFETCH, handlerTimeoutMs: 30 * 60_000, isOutage: (error) => isBatchOutage(error, isConnectionError), describe: (job) => ({ batch_id: job.batch_id, organization_id: job.organization_id, lines: job.lines.length }) },
    ));
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
    {
      // Jobs running now are finished where the grace period allows (a background turn or a batch
      // chunk cut here would run again on another worker), keeping the end of it for publishing
      // their usage; what is still running then is handed back to RabbitMQ when it closes.
      name: 'stop taking jobs; finish the running ones',
      run: async () => {
        await Promise.all(consumers.map((consumer) => consumer.cancel().catch(() => undefined)));
        await withTimeout(Promise.all(consumers.map((consumer) => consumer.drain())), drainBudgetMs(config.SHUTDOWN_GRACE_MS)).catch(() =>
          logger.warn('shutdown: jobs still running are handed back to RabbitMQ for another worker'),
        );
      },
    },
    { name: 'response pool', run: async () => pool?.stop() },
    { name: 'usage records held in memory', run: async () => usage?.close() },
    { name: 'calls', run: async () => {
      calls.close();
      conversations.close();
      batches.close();
    } },
    { name: 'amqp', run: () => amqp.close() },
    { name: 'usage outbox', run: async () => outbox?.close() },
    { name: 'redis', run: async () => void (await Promise.allSettled([redis.quit(), cancels?.quit()])) },
    { name: 'health', run: () => new Promise<void>((resolve) => health.close(() => resolve())) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('workers', main);
