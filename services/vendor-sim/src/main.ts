import './instrumentation';
import { createLogger, type Logger } from '@svc/logger';
import { stopTelemetry } from '@svc/telemetry';
import { createAppServer } from '@svc/lifecycle';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { BatchStore, DEFAULT_BATCH_OPTIONS } from './batch/run';
import { loadVendorSimConfig } from './config';

let logger: Logger | undefined;

async function main(): Promise<void> {
  const config = loadVendorSimConfig();
  logger = createLogger({ service: 'vendor-sim', level: config.LOG_LEVEL });
  const app = createApp({
    logger,
    latency: { ttftMs: config.SIM_TTFT_MS, tokensPerSecond: config.SIM_TOKENS_PER_SECOND },
    fault: config.SIM_FAULT,
    batches: new BatchStore(Date.now, { ...DEFAULT_BATCH_OPTIONS, lineMs: config.SIM_BATCH_LINE_MS }),
  });
  const server = createAppServer(app);
  // Streams can sit idle through a long simulated ttft; the client decides when to give up.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.VENDOR_SIM_PORT, config.VENDOR_SIM_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info('listening', { port, host: config.VENDOR_SIM_HOST });

  const log = logger;
  const shutdown = (signal: string) => {
    log.info('shutting down', { signal });
    // Stop accepting; in-flight requests and streams run to their end. A `timeout` fault never
    // ends by itself, so whatever is left after the grace period is closed.
    const exit = () => void stopTelemetry().finally(() => process.exit(0));
    server.close(exit);
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      exit();
    }, config.SHUTDOWN_GRACE_MS).unref();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  (logger ?? createLogger({ service: 'vendor-sim' })).error('startup failed', { error });
  process.exit(1);
});
