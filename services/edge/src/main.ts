import './instrumentation';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLogger, type Logger } from '@svc/logger';
import { catalog } from '@svc/catalog';
import { createRedis } from '@svc/redis';
import { connectAmqp, declareQueue, type AmqpConnection } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import { onShutdown, run } from '@svc/lifecycle';
import { stopTelemetry } from '@svc/telemetry';
import { readConfig } from './config';
import { createApp } from './app';
import { createBackends } from './clients/clients';
import { KeyCache } from './auth/key-cache';
import { createUsageSink } from './settlement/usage';
import { createIpLimiter } from './limits/ip-limit';
import { createKeyLimiter } from './limits/key-limits';
import { createImageFetcher } from './chat/images';
import { ProviderHealth, RedisCacheState, createOwnKeys } from '@svc/call';

const KEY_EVENTS = 'key-events';

/** Keeps one confirm channel to RabbitMQ open, reconnecting in the background when it drops. */
function amqpKeeper(url: string, logger: Logger) {
  let current: AmqpConnection | undefined;
  let stopped = false;
  const connect = async (): Promise<void> => {
    while (!stopped) {
      try {
        current = await connectAmqp(url, (error) => {
          logger.warn('amqp connection lost; reconnecting', { err: error });
          current = undefined;
          setTimeout(() => void connect(), 500);
        });
        await declareQueue(current.channel, usageSettle.name);
        return;
      } catch (error) {
        logger.warn('amqp connect failed; retrying', { err: error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  return {
    ready: connect(),
    channel: () => current?.channel,
    close: async () => {
      stopped = true;
      await current?.close();
    },
  };
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ service: 'edge', level: config.LOG_LEVEL });
  const backends = createBackends({ routerAddr: config.ROUTER_ADDR, billingAddr: config.BILLING_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, name: 'edge' });
  const subscriber = createRedis({ url: config.REDIS_URL, name: 'edge-key-events' });
  const keyCache = new KeyCache(config.KEY_CACHE_TTL_MS);
  const ownKeys = createOwnKeys({ fetch: (organizationId) => backends.vendorKeys(organizationId), ttlMs: config.BYOK_CACHE_TTL_MS });
  await subscriber.subscribe(`${config.REDIS_KEY_PREFIX}${KEY_EVENTS}`);
  subscriber.on('message', (_channel, message) => {
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
  const amqp = amqpKeeper(config.AMQP_URL, logger);
  await amqp.ready;
  const usage = createUsageSink({ channel: amqp.channel, settleDirect: (records) => backends.settle({ records }), logger });
  const vendorKeys = Object.fromEntries(Object.entries(config).filter(([name]) => /^VENDOR_\d_API_KEY$/.test(name))) as Record<string, string | undefined>;

  const ipLimiter = createIpLimiter({ redis, limitPerMinute: config.IP_RATE_LIMIT_PER_MINUTE, trustedProxyHeader: config.TRUSTED_PROXY_HEADER, logger });
  const keyLimiter = createKeyLimiter({ redis, logger });
  const health = new ProviderHealth({
    redis,
    logger,
    threshold: config.HEALTH_FAILURE_THRESHOLD,
    windowMs: config.HEALTH_WINDOW_MS,
    cooldownMs: config.HEALTH_COOLDOWN_MS,
    refreshMs: config.HEALTH_REFRESH_MS,
  });
  health.start();

  let ready = true;
  const app = createApp({
    logger,
    catalog,
    keyCache,
    lookupKey: async (hash) => {
      const response = await backends.authenticateKey(hash);
      if (!response.key) throw new Error('billing returned no key record');
      return response.key;
    },
    chat: {
      catalog,
      backends,
      usage,
      keyLimiter,
      cacheState: new RedisCacheState({ redis, logger }),
      health,
      images: createImageFetcher({ maxBytes: config.IMAGE_MAX_BYTES, timeoutMs: config.IMAGE_TIMEOUT_MS }),
      logger,
      simUrl: config.VENDOR_SIM_URL,
      vendorKeys,
      forwardSimHeaders: config.FORWARD_SIM_HEADERS,
      attemptTimeoutMs: config.ATTEMPT_TIMEOUT_MS,
      attemptTimeoutLongMs: config.ATTEMPT_TIMEOUT_LONG_MS,
      longCallCommitMs: config.LONG_CALL_COMMIT_MS,
      keepaliveIntervalMs: config.KEEPALIVE_INTERVAL_MS,
      ownKeys,
      topupUrl: config.TOPUP_URL,
    },
    ipLimit: ipLimiter.middleware,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    isReady: () => ready,
  });
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.EDGE_PORT, config.EDGE_HOST, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
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
          server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          server.closeIdleConnections();
        }),
    },
    { name: 'provider health', run: async () => health.stop() },
    { name: 'amqp', run: () => amqp.close() },
    { name: 'redis', run: async () => void (await Promise.allSettled([redis.quit(), subscriber.quit()])) },
    { name: 'grpc clients', run: async () => backends.close() },
    { name: 'telemetry', run: () => stopTelemetry() },
  ]);
}

run('edge', main);
