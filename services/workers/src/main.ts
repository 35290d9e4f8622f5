import './instrumentation';
import { createServer, type Server } from 'node:http';
import { createLogger } from '@svc/logger';
import { connectAmqp } from '@svc/amqp';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';

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
    { name: 'health', run: () => new Promise<void>((resolve) => health.close(() => resolve())) },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('workers', main);
