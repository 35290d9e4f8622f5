import './instrumentation';
import { createLogger } from '@svc/logger';
import { startGrpcServer } from '@svc/grpc';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createPrisma } from './db';

/**
 * The batch service owns its Postgres schema "batch". It starts, checks its database and
 * reports SERVING on grpc.health.v1; its public RPCs (protos/svc/batch/v1) are registered as
 * their features land.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'batch', level: config.LOG_LEVEL });
  const prisma = createPrisma(config.DATABASE_URL);
  await prisma.$queryRaw`SELECT 1`;
  const grpcServer = await startGrpcServer({ host: config.BATCH_HOST, port: config.BATCH_PORT, services: [] });
  logger.info('listening', { port: grpcServer.port });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'grpc', run: () => grpcServer.shutdown(config.SHUTDOWN_GRACE_MS - 2000) },
    { name: 'postgres', run: () => prisma.$disconnect() },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('batch', main);
