import './instrumentation';
import { createLogger } from '@svc/logger';
import { catalog } from '@svc/catalog';
import { startGrpcServer } from '@svc/grpc';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { routerService } from './server';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'router', level: config.LOG_LEVEL });
  const grpcServer = await startGrpcServer({
    host: config.ROUTER_HOST,
    port: config.ROUTER_PORT,
    services: [routerService({ catalog, logger, protosDir: config.PROTOS_DIR })],
  });
  logger.info('listening', { port: grpcServer.port });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'grpc', run: () => grpcServer.shutdown(config.SHUTDOWN_GRACE_MS - 2000) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('router', main);
