import './instrumentation';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLogger, throttledWarning } from '@svc/logger';
import { catalog } from '@svc/catalog';
import { createRedis, inOneWrite } from '@svc/redis';
import { createAmqpClient } from '@svc/amqp';
import { forwardedSimulatorHeaders } from './calls/ports';
import { BATCH_CANCEL_CHANNEL, CONVERSATION_CHANGES_CHANNEL, batchStart, conversationCompact, responseRun, usageSettle } from '@svc/messages';
import { createAppServer, drainBudgetMs, onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createApp } from './app';
import { clientErrorHandler, connectRefusal } from './middleware/errors';
import { createCompactor } from './responses/compactor';
import { HistoryCache, followConversationChanges } from './responses/history-cache';
import { createBackgroundQueue } from './responses/background';
import { readStanding } from '@svc/admission';
import { KeyCache } from './auth/key-cache';
import { createIpLimiter } from './limits/ip-limit';
import { createKeyLimiter } from './limits/key-limits';
import { createBatchClient, createCallRuntime, createConversationsClient, prometheusReader, routerPort, createStatusService, createUsageOutbox, createUsageSink, parseRegionalComponents, statusComponents, type DurableUsageSink } from '@svc/backends';

const KEY_EVENTS = 'key-events';

/** The longest a refund owed to a key's token bucket waits for the key's next check before it is sent (limits/key-limits.ts foldRefunds). */
const KEY_REFUND_FLUSH_MS = 20;

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'edge', level: config.LOG_LEVEL });
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'edge' });
  redis.on('error', throttledWarning(logger, 'redis connection failed: commands wait for the reconnect'));
  // One reconnecting broker connection (libs/amqp); usage records it cannot take within the
  // confirm limit go to the outbox in Postgres, then billing.Settle (libs/backends usage-sink.ts).
  const amqp = createAmqpClient({ url: config.AMQP_URL, logger, name: 'edge', queues: [usageSettle.name, conversationCompact.name, responseRun.name, batchStart.name] });
  const outbox = config.DATABASE_URL ? createUsageOutbox({ databaseUrl: config.DATABASE_URL, applicationName: 'svc-edge-usage-outbox' }) : undefined;
  if (!outbox) logger.warn('DATABASE_URL is not set: no usage outbox; usage the broker cannot take goes to billing.Settle, else is held in memory');
  let usage: DurableUsageSink | undefined;
  // The call pipeline's wiring, the same as the workers' (libs/backends): gRPC clients, provider
  // health and prompt-cache state in Redis, own vendor keys, the usage sink.
  const runtime = createCallRuntime(config, {
    catalog,
    logger,
    redis,
    usage: (clients) => (usage = createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), outbox, settleDirect: (records) => clients.settle({ records }), logger })),
  });
  const { backends, ownKeys, health } = runtime;
  const conversations = createConversationsClient({ address: config.CONVERSATIONS_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  const batch = createBatchClient({ address: config.BATCH_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  const subscriber = createRedis({ url: config.REDIS_URL, name: 'edge-key-events' });
  subscriber.on('error', throttledWarning(logger, 'redis key-events subscription failed: reconnecting (the key cache is dropped when it is back)'));
  const keyCache = new KeyCache(config.KEY_CACHE_TTL_MS);
  // Thread histories kept for turns that continue from them, dropped when the conversations
  // service announces a change (responses/history-cache.ts); kept only while that subscription is up.
  const historyCache = config.RESPONSES_HISTORY_CACHE_TTL_MS > 0 ? new HistoryCache({ ttlMs: config.RESPONSES_HISTORY_CACHE_TTL_MS, maxCharacters: config.RESPONSES_HISTORY_CACHE_MAX_CHARACTERS }) : undefined;
  const keyEvents = `${config.REDIS_KEY_PREFIX}${KEY_EVENTS}`;
  await subscriber.subscribe(keyEvents);
  if (historyCache) await followConversationChanges(subscriber, historyCache, `${config.REDIS_KEY_PREFIX}${CONVERSATION_CHANGES_CHANNEL}`);
  subscriber.on('message', (channel, message) => {
    if (channel !== keyEvents) return;
    try {
      const event = JSON.parse(message) as { type?: string; hash?: string };
      if (event.type === 'invalidate' && event.hash) {
        // A key change may be a BYOK change of its organization: its own vendor keys are fetched again.
        const dropped = keyCache.invalidate(event.hash);
        if (dropped) ownKeys.invalidate(dropped.organization_id);
      }
    } catch {
      keyCache.clear();
    }
  });
  // While the subscription is down, revocations could be missed: drop the cache on reconnect.
  subscriber.on('ready', () => keyCache.clear());
  // Start on the queue when the broker is there; without it the edge serves anyway (the outbox takes usage).
  await amqp.waitReady(5000).catch(() => logger.warn('broker not reachable at start; serving, usage goes to the outbox until it is'));

  const ipLimiter = createIpLimiter({ redis, limitPerMinute: config.IP_RATE_LIMIT_PER_MINUTE, trustedProxyHeader: config.TRUSTED_PROXY_HEADER, logger });
  // A call's token refund goes with the key's next check (or with the other refunds owed, within
  // KEY_REFUND_FLUSH_MS): no Redis write of its own after the vendor answered.
  const keyLimiter = createKeyLimiter({ redis, logger, foldRefunds: { flushMs: KEY_REFUND_FLUSH_MS } });

  // The status document: computed every STATUS_RECOMPUTE_MS by one replica, served by all.
  const regional = parseRegionalComponents(config.STATUS_REGIONAL_COMPONENTS);
  const statusService = createStatusService({
    redis,
    components: statusComponents(catalog.data.vendors, regional),
    logger,
    recomputeMs: config.STATUS_RECOMPUTE_MS,
    ...(config.STATUS_SOURCE === 'prometheus' ? { read: prometheusReader({ url: config.PROMETHEUS_URL, catalog, regional }) } : {}),
  });

  let ready = true;
  const app = createApp({
    logger,
    catalog,
    status: { service: statusService, recorder: runtime.status },
    analyzer: { catalog, router: routerPort(backends), redis, logger, dailyCap: config.ANALYZER_DAILY_CAP, ...(runtime.deps.split ? { split: runtime.deps.split } : {}) },
    keyCache,
    lookupKey: async (hash) => {
      const response = await backends.authenticateKey(hash);
      if (!response.key) throw new Error('billing returned no key record');
      return response.key;
    },
    chat: {
      catalog,
      backends,
      billing: runtime.deps.billing,
      usage: runtime.deps.usage,
      keyLimiter,
      cacheState: runtime.deps.cacheState,
      health,
      images: runtime.deps.images,
      logger,
      simUrl: config.VENDOR_SIM_URL,
      vendorKeys: runtime.deps.vendors.keys,
      forwardSimHeaders: config.FORWARD_SIM_HEADERS,
      attemptTimeoutMs: config.ATTEMPT_TIMEOUT_MS,
      attemptTimeoutLongMs: config.ATTEMPT_TIMEOUT_LONG_MS,
      longCallCommitMs: config.LONG_CALL_COMMIT_MS,
      keepaliveIntervalMs: config.KEEPALIVE_INTERVAL_MS,
      ownKeys,
      topupUrl: config.TOPUP_URL,
      attemptObserver: runtime.deps.attemptObserver,
      jev: runtime.deps.jev,
      ...(runtime.deps.split ? { split: runtime.deps.split } : {}),
      oneWrite: (issue) => inOneWrite(redis, issue),
    },
    conversations: {
      conversations,
      retentionDays: config.CONVERSATION_RETENTION_DAYS,
      compactor: createCompactor({ amqp, redis, logger, waitMs: config.COMPACTION_WAIT_MS }),
      compactionModel: config.COMPACTION_MODEL,
      ...(historyCache ? { historyCache } : {}),
      ...(config.BACKGROUND_RESPONSES ? { background: createBackgroundQueue({ amqp, redis, keyPrefix: config.REDIS_KEY_PREFIX }) } : {}),
    },
    // The organization's retention is one setting for conversations and files.
    files: { batch, retentionDays: config.CONVERSATION_RETENTION_DAYS, logger },
    batches: {
      batch,
      // A broker that is reconnecting (a restart, a dropped connection) gets a few seconds before
      // the batch is failed and the client told to retry.
      start: async (job) => {
        await amqp.waitReady(5000);
        await amqp.publish(batchStart, job);
      },
      announceCancel: async (batchId) => {
        await redis.publish(`${config.REDIS_KEY_PREFIX}${BATCH_CANCEL_CHANNEL}`, batchId);
      },
      retentionDays: config.CONVERSATION_RETENTION_DAYS,
      logger,
      simulatorHeaders: (req) => forwardedSimulatorHeaders(config.FORWARD_SIM_HEADERS, req.headers),
    },
    standing: (organizationId) => readStanding(redis, organizationId),
    ipLimit: ipLimiter.middleware,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    isReady: () => ready,
  });
  // Node would answer a missing Host with a bare 400; the app answers it in the envelope (hostRequired).
  const server: Server = createAppServer(app, { requireHostHeader: false });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.EDGE_PORT, config.EDGE_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Requests Node cannot parse are answered in the envelope with an x-request-id, not a bare line.
  server.on('clientError', clientErrorHandler(logger));
  server.on('connect', connectRefusal(logger));
  server.requestTimeout = 0;
  logger.info('listening', { port: (server.address() as AddressInfo).port });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    {
      name: 'stop accepting; finish in-flight requests and streams',
      run: () =>
        new Promise<void>((resolve) => {
          ready = false;
          // Connections that finish their response while draining go idle: close them as they do.
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          // Calls still running near the end of the grace period are cut while there is time left
          // to publish what they owe (a stream the client was sent part of is billed for it) and to
          // flush usage records held in memory — rather than the process exiting under them.
          const cut = setTimeout(() => {
            logger.warn('shutdown: cutting calls still running so that their usage is published before exit');
            server.closeAllConnections();
          }, drainBudgetMs(config.SHUTDOWN_GRACE_MS));
          server.close(() => {
            clearInterval(sweep);
            clearTimeout(cut);
            // A cut call finishes its billing a moment after its socket closed.
            setTimeout(resolve, SHUTDOWN_SETTLE_MS);
          });
          server.closeIdleConnections();
        }),
    },
    { name: 'usage records held in memory', run: async () => usage?.close() },
    { name: 'provider health and grpc clients', run: async () => {
      statusService.close();
      runtime.close();
      conversations.close();
      batch.close();
    } },
    { name: 'amqp', run: () => amqp.close() },
    { name: 'usage outbox', run: async () => outbox?.close() },
    { name: 'redis', run: async () => void (await Promise.allSettled([redis.quit(), subscriber.quit()])) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

/** How long a call cut at shutdown is given to publish its usage once its socket closed. */
const SHUTDOWN_SETTLE_MS = 250;

run('edge', main);
