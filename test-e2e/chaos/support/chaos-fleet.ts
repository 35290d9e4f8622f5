import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { connectAmqp, type AmqpConnection } from '@svc/amqp';
import { createRedis, type Redis } from '@svc/redis';
import { startFleet, type Fleet, type ServiceName } from '../../../libs/fleet/src';
import { startTcpProxy, type TcpProxy } from '../../../libs/fleet/src/tcp-proxy';
import { fleetState, ROOT } from '../../support/fleet-state';

/**
 * A private fleet for one chaos file: its own RabbitMQ vhost and Redis key prefix on the e2e
 * database (svc_e2e), with every service reaching Postgres, Redis and RabbitMQ through TCP
 * proxies this test process owns. The test cuts (resets and refuses connections) or stalls
 * (accepts, holds every byte) each dependency for this fleet only; the machine's servers are
 * never touched. The test itself (admin CLI, ledger queries, queue checks) talks to the servers
 * directly.
 */

export type Dependency = 'postgres' | 'redis' | 'amqp';

export interface ChaosFleetOptions {
  /** Short name: the vhost, the key prefix and the log directory carry it. */
  name: string;
  /** The supervisor restarts crashed services (the kill scenario); default false. */
  restart?: boolean;
  /** Added to (or replacing) every service's environment. */
  env?: Record<string, string>;
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  only?: ServiceName[];
  /** Replicas of edge, router or billing (a round-robin balancer on the edge port). */
  replicas?: Partial<Record<'edge' | 'router' | 'billing', number>>;
}

export interface Organization {
  organizationId: string;
  apiKey: string;
  keyId: string;
  creditMicros: number;
}

export interface ChaosFleet {
  name: string;
  fleet: Fleet;
  baseUrl: string;
  proxies: Record<Dependency, TcpProxy>;
  /** The environment the fleet runs with (dependency URLs point at the proxies). */
  env: Record<string, string>;
  /** The same with the servers' own URLs (what the test and the admin CLI use). */
  directEnv: Record<string, string>;
  db: Client;
  redis: Redis;
  amqp: AmqpConnection;
  logDir: string;
  admin<T = Record<string, unknown>>(...args: string[]): T;
  newOrganization(options?: { credit?: number; keyFlags?: string[] }): Organization;
  /** The current pid of every fleet process, by instance name. */
  pids(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

const RUN = `${process.pid}_${randomBytes(3).toString('hex')}`;

function rabbitmqctl(...args: string[]): void {
  execFileSync('rabbitmqctl', args, { stdio: 'ignore', timeout: 60_000 });
}

function target(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

export async function startChaosFleet(options: ChaosFleetOptions): Promise<ChaosFleet> {
  const base = fleetState().env;
  const vhost = `svc_e2e_chaos_${options.name}_${RUN}`;
  rabbitmqctl('add_vhost', vhost);
  rabbitmqctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
  const amqpUrl = new URL(base.AMQP_URL);
  amqpUrl.pathname = `/${vhost}`;
  const direct = {
    DATABASE_URL: base.DATABASE_URL,
    REDIS_URL: base.REDIS_URL,
    AMQP_URL: amqpUrl.toString(),
  };
  const proxies: Record<Dependency, TcpProxy> = {
    postgres: await startTcpProxy(target(direct.DATABASE_URL, 5432)),
    redis: await startTcpProxy(target(direct.REDIS_URL, 6379)),
    amqp: await startTcpProxy(target(direct.AMQP_URL, 5672)),
  };
  const common: Record<string, string> = {
    REDIS_KEY_PREFIX: `svce2e:chaos:${options.name}:${RUN}:`,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '5000',
    IP_RATE_LIMIT_PER_MINUTE: '10000000',
    HEALTH_FAILURE_THRESHOLD: '1000000',
    BYOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    FILES_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...options.env,
  };
  const env = {
    ...common,
    DATABASE_URL: proxies.postgres.url(direct.DATABASE_URL),
    REDIS_URL: proxies.redis.url(direct.REDIS_URL),
    AMQP_URL: proxies.amqp.url(direct.AMQP_URL),
  };
  const directEnv = { ...common, ...direct };
  const logDir = join(ROOT, '.svc', 'logs', `e2e-chaos-${options.name}-${RUN}`);
  mkdirSync(logDir, { recursive: true });
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // best effort
      }
    }
  };
  cleanups.push(() => rabbitmqctl('delete_vhost', vhost));
  cleanups.push(async () => {
    for (const proxy of Object.values(proxies)) await proxy.close();
  });
  try {
    const fleet = await startFleet({ root: ROOT, env, logDir, restart: options.restart ?? false, serviceEnv: options.serviceEnv, only: options.only, ...(options.replicas ? { replicas: options.replicas } : {}), startTimeoutMs: 60_000, ...(process.env.CHAOS_PROFILE ? { nodeArgs: { edge: ['--cpu-prof', `--cpu-prof-dir=${logDir}`] } } : {}) });
    cleanups.push(() => fleet.stop());
    const db = new Client({ connectionString: direct.DATABASE_URL });
    await db.connect();
    cleanups.push(() => db.end());
    const redis = createRedis({ url: direct.REDIS_URL, keyPrefix: common.REDIS_KEY_PREFIX });
    cleanups.push(async () => {
      // Every key of this fleet (balances, markers, buckets, sessions) under its prefix.
      const plain = createRedis({ url: direct.REDIS_URL });
      try {
        const stream = plain.scanStream({ match: `${common.REDIS_KEY_PREFIX}*`, count: 1000 });
        for await (const keys of stream as AsyncIterable<string[]>) if (keys.length > 0) await plain.del(...keys);
      } finally {
        plain.disconnect();
      }
      redis.disconnect();
    });
    const amqp = await connectAmqp(direct.AMQP_URL);
    cleanups.push(() => amqp.close());
    const admin = <T = Record<string, unknown>>(...args: string[]): T => {
      const out = execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...directEnv }, encoding: 'utf8' });
      return JSON.parse(out.trim().split('\n').pop() as string) as T;
    };
    return {
      name: options.name,
      fleet,
      baseUrl: fleet.baseUrl,
      proxies,
      env,
      directEnv,
      db,
      redis,
      amqp,
      logDir,
      admin,
      newOrganization: (org = {}) => {
        const credit = org.credit ?? 1_000_000_000;
        const created = admin<{ organization_id: string }>('org', 'create', '--name', `chaos-${options.name}-${randomBytes(3).toString('hex')}`, '--plan', 'paid', '--credit', String(credit));
        const key = admin<{ key: string; key_id: string }>('key', 'create', '--org', created.organization_id, '--rpm', '1000000', '--tpm', '1000000000', ...(org.keyFlags ?? []));
        return { organizationId: created.organization_id, apiKey: key.key, keyId: key.key_id, creditMicros: credit };
      },
      pids: () => Object.fromEntries(fleet.instances.map((instance) => [instance.name, fleet.processOf(instance.name)?.pid])),
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds, or gives up after `timeoutMs` and returns the last value. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(everyMs);
  }
}
