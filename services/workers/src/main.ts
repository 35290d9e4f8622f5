import './instrumentation';
import { createServer, type Server } from 'node:http';
import { createLogger } from '@svc/logger';
import { connectAmqp, declareQueue } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import { createRedis } from '@svc/redis';
import { createUsageSink } from '@svc/backends';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createWorkerCalls } from './calls/worker-calls';

/**
 * Workers consume RabbitMQ queues (batch lines, background responses, compaction, retention
 * sweeps) chosen by WORKER_QUEUES. The process connects to the broker, serves /healthz and
 * /readyz, and exits when the broker connection is lost so its supervisor restarts it.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'workers', level: config.LOG_LEVEL });
  let ready = false;
  const amqp = await connectAmqp(config.AMQP_URL, (error) => {
    logger.error('amqp connection lost', { err: error });
    process.exit(1);
  });
  await declareQueue(amqp.channel, usageSettle.name);
  // The call pipeline the queue consumers run their model calls through (the edge's, same wiring).
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'workers' });
  const calls = createWorkerCalls(config, { logger, redis, usage: (backends) => createUsageSink({ channel: () => amqp.channel, settleDirect: (records) => backends.settle({ records }), logger }) });
  const health: Server = createServer((req, res) => {
    const ok = req.url === '/healthz' || (req.url === '/readyz' && ready);
    res.writeHead(ok ? 200 : req.url === '/readyz' ? 503 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
  });
  await new Promise<void>((resolve) => health.listen(config.WORKERS_HEALTH_PORT, config.WORKERS_HOST, resolve));
  ready = true;
  logger.info('listening', { port: config.WORKERS_HEALTH_PORT, queues: config.WORKER_QUEUES.split(',').filter(Boolean) });
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    { name: 'not ready', run: async () => void (ready = false) },
    { name: 'amqp', run: () => amqp.close() },
    { name: 'calls', run: async () => calls.close() },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'health', run: () => new Promise<void>((resolve) => health.close(() => resolve())) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('workers', main);
