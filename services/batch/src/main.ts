import './instrumentation';
import { createLogger } from '@svc/logger';
import { startGrpcServer } from '@svc/grpc';
import { parseMasterKey } from '@svc/crypto';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createPrisma, poolOf } from './db';
import { batchService } from './server';
import { dataKeys } from './files/encryption';
import { postgresBlobStore } from './files/postgres-blob-store';
import { startSweeper } from './files/sweep';
import { startBatchTicker } from './batches/finalize';

/**
 * The batch service owns its Postgres schema "batch": uploaded files (encrypted, in chunks in the
 * blob store) and batches. It serves svc.batch.v1.BatchService and sweeps expired and deleted
 * files; grpc.health.v1 reports SERVING once the database answered.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'batch', level: config.LOG_LEVEL });
  let masterKey: Buffer;
  try {
    masterKey = parseMasterKey(config.FILES_ENCRYPTION_KEY, 'FILES_ENCRYPTION_KEY')!;
  } catch (error) {
    process.stderr.write(`batch: invalid configuration: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const prisma = createPrisma(config.DATABASE_URL);
  await prisma.$queryRaw`SELECT 1`;
  const pool = poolOf(prisma);
  const files = { pool, blobs: postgresBlobStore(pool), keys: dataKeys(pool, masterKey) };
  const batches = { ...files, windowMs: config.BATCH_WINDOW_MS };
  const ticker = startBatchTicker(batches, logger, { intervalMs: config.BATCH_TICK_MS, cancelGraceMs: config.BATCH_CANCEL_GRACE_MS });
  const grpcServer = await startGrpcServer({ host: config.BATCH_HOST, port: config.BATCH_PORT, services: [batchService({ files, batches, onLastLine: () => ticker.poke(), logger, protosDir: config.PROTOS_DIR })] });
  const sweeper = startSweeper(files, logger, config.FILES_SWEEP_INTERVAL_MS);
  logger.info('listening', { port: grpcServer.port, blob_store: config.FILES_BLOB_STORE });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'grpc', run: () => grpcServer.shutdown(config.SHUTDOWN_GRACE_MS - 2000) },
    { name: 'files sweeper', run: () => sweeper.stop() },
    { name: 'batch ticker', run: () => ticker.stop() },
    { name: 'postgres', run: () => prisma.$disconnect() },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('batch', main);
