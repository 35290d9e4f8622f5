import './instrumentation';
import { createLogger, throttledWarning } from '@svc/logger';
import { catalog } from '@svc/catalog';
import { createRedis } from '@svc/redis';
import { createAmqpClient } from '@svc/amqp';
import { startGrpcServer } from '@svc/grpc';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createPrisma } from './db';
import { billingService } from './server';
import { usageSettle } from '@svc/messages';
import { startSettlementConsumer } from './settlement/consumer';
import { startOutboxSweeper } from './settlement/outbox';
import { watchQueueDepth } from './queue-metrics';
import { parseEncryptionKey } from './byok/seal';
import { vendorKeys } from './byok/vendor-keys';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'billing', level: config.LOG_LEVEL });
  const encryptionKey = parseEncryptionKey(config.BYOK_ENCRYPTION_KEY);
  const prisma = createPrisma(config.DATABASE_URL);
  await prisma.$connect();
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'billing' });
  redis.on('error', throttledWarning(logger, 'redis connection failed: commands wait for the reconnect'));
  // One reconnecting connection: a broker restart or a lost connection is waited out (the
  // consumer subscribes again when it is back); auth and admission over gRPC never depend on it.
  const amqp = createAmqpClient({ url: config.AMQP_URL, logger, name: 'billing', queues: [usageSettle.name] });
  // Each check gets a channel of its own on the current connection (waiting a little for one at start).
  const queueDepth = watchQueueDepth({ createChannel: async () => (await amqp.waitReady(2000), amqp.createChannel()) }, [usageSettle.name, `${usageSettle.name}.dead`], { logger });
  const settlement = { prisma, redis, catalog, logger };
  const consumer = startSettlementConsumer(amqp, settlement, { batchSize: config.SETTLE_BATCH_SIZE, batchWaitMs: config.SETTLE_BATCH_WAIT_MS });
  // Usage records edges could not hand to the broker (billing.usage_outbox), settled the same way.
  const outbox = startOutboxSweeper(settlement, { intervalMs: config.USAGE_OUTBOX_SWEEP_MS });
  const grpcServer = await startGrpcServer({
    host: config.BILLING_HOST,
    port: config.BILLING_PORT,
    services: [
      billingService({
        prisma,
        redis,
        logger,
        catalog,
        keyCacheTtlSeconds: config.KEY_CACHE_TTL_SECONDS,
        protosDir: config.PROTOS_DIR,
        freeDailyCostMicros: config.FREE_DAILY_COST_MICROS,
        reservationTtlSeconds: config.RESERVATION_TTL_SECONDS,
        vendorKeys: async (organizationId) => {
          const result = await vendorKeys({ prisma, encryptionKey }, organizationId);
          if (result.unreadable.length > 0) logger.error('own vendor keys that do not open (check BYOK_ENCRYPTION_KEY)', { organization_id: organizationId, vendors: result.unreadable });
          return result.keys;
        },
      }),
    ],
  });
  logger.info('listening', { port: grpcServer.port });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'stop consuming', run: () => consumer.cancel() },
    { name: 'grpc', run: () => grpcServer.shutdown(config.SHUTDOWN_GRACE_MS - 2000) },
    { name: 'settle what was taken', run: () => consumer.drain() },
    { name: 'usage outbox sweep', run: () => outbox.stop() },
    { name: 'queue depth', run: () => queueDepth.stop() },
    { name: 'amqp', run: () => amqp.close() },
    { name: 'redis', run: () => redis.quit() },
    { name: 'postgres', run: () => prisma.$disconnect() },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('billing', main);
