import './instrumentation';
import { createLogger, throttledWarning } from '@svc/logger';
import { startGrpcServer } from '@svc/grpc';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createPrisma } from './db';
import { conversationsService } from './server';
import { createRedis } from '@svc/redis';
import { redisChanges } from './changes';

/**
 * The conversations service owns its Postgres schema "conversations": responses, conversations and
 * their items (protos/svc/conversations/v1; README.md "Conversations storage"). It starts, checks its
 * database, serves ConversationsService and reports SERVING on grpc.health.v1.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'conversations', level: config.LOG_LEVEL });
  const prisma = createPrisma(config.DATABASE_URL);
  await prisma.$queryRaw`SELECT 1`;
  // Fail fast: an announcement Redis cannot take at once is logged and skipped (changes.ts), never queued behind an outage.
  const redis = createRedis({ url: config.REDIS_URL, name: 'conversations-changes', failFast: true });
  redis.on('error', throttledWarning(logger, 'redis (conversation change announcements) unreachable: reconnecting; edges keep cached histories until they expire'));
  const changes = redisChanges({ redis, keyPrefix: config.REDIS_KEY_PREFIX, logger });
  const grpcServer = await startGrpcServer({ host: config.CONVERSATIONS_HOST, port: config.CONVERSATIONS_PORT, services: [conversationsService({ prisma, logger, protosDir: config.PROTOS_DIR, changes })] });
  logger.info('listening', { port: grpcServer.port });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'grpc', run: () => grpcServer.shutdown(config.SHUTDOWN_GRACE_MS - 2000) },
    { name: 'postgres', run: () => prisma.$disconnect() },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => redis.disconnect())) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('conversations', main);
