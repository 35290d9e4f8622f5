import './instrumentation';
import { createLogger } from '@svc/logger';
import { catalog } from '@svc/catalog';
import { startGrpcServer } from '@svc/grpc';
import { onShutdown, run } from '@svc/lifecycle';
import { createRedis } from '@svc/redis';
import { stopTelemetry } from '@svc/telemetry';
import { loadClassifier, trainedClassifierId, type AsyncClassifier, type Classifier } from './classifier';
import { createLlmClassifier } from './classifier/llm-classifier';
import { readConfig, vendorKeysOf } from './config';
import { redisSessionStore } from './routing/sessions';
import { routerService } from './server';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'router', level: config.LOG_LEVEL });
  // Loaded once at start; a missing or stale weights file stops the process here.
  const trained = loadClassifier(config.CLASSIFIER_WEIGHTS);
  // ROUTER_CLASSIFIER=llm: a catalog model answers, the trained classifier when it fails or is slow.
  const classifier: Classifier | AsyncClassifier =
    config.ROUTER_CLASSIFIER === 'llm'
      ? createLlmClassifier({
          catalog,
          model: config.ROUTER_LLM_CLASSIFIER_MODEL,
          simUrl: config.VENDOR_SIM_URL,
          vendorKeys: vendorKeysOf(config),
          timeoutMs: config.ROUTER_LLM_CLASSIFIER_TIMEOUT_MS,
          fallback: trained,
          logger,
        })
      : trained;
  // Fail fast while disconnected: routing goes on without session state rather than waiting.
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'router', failFast: true });
  let lastRedisWarning = 0;
  redis.on('error', (error) => {
    if (Date.now() - lastRedisWarning < 10_000) return;
    lastRedisWarning = Date.now();
    logger.warn('redis unavailable: auto routing goes on without session state', { err: error });
  });
  const grpcServer = await startGrpcServer({
    host: config.ROUTER_HOST,
    port: config.ROUTER_PORT,
    services: [
      routerService({ catalog, logger, classifier, sessions: redisSessionStore(redis), sessionTimeoutMs: config.SESSION_TIMEOUT_MS, protosDir: config.PROTOS_DIR }),
    ],
  });
  logger.info('listening', { port: grpcServer.port, classifier: 'id' in classifier ? classifier.id : trainedClassifierId(trained.meta) });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'grpc', run: () => grpcServer.shutdown(config.SHUTDOWN_GRACE_MS - 2000) },
    { name: 'redis', run: () => redis.quit() },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('router', main);
