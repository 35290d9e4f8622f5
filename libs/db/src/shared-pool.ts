import { Pool, type PoolClient } from 'pg';

/** What a Prisma client offers for the pool's lifetime. */
export interface Disconnectable {
  $disconnect(): Promise<void>;
}

const pools = new WeakMap<object, Pool>();

/**
 * One pg pool shared by a service's Prisma client (through the pg driver adapter `make` builds)
 * and its plain-`pg` statements (`poolOf`). An idle connection that breaks is dropped by the pool
 * (the next query opens another); without a listener its 'error' event would end the process.
 * A connection that cannot be made within 5 s fails (pg waits forever by default, so a stalled
 * Postgres would hang every caller past its deadline), and TCP keepalive notices a connection that
 * went silent — as billing's client does. `$disconnect()` ends the pool too.
 */
export function withSharedPool<C extends Disconnectable>(databaseUrl: string, make: (pool: Pool) => C, options: { max?: number; onConnect?: (client: PoolClient) => void } = {}): C {
  const pool = new Pool({ connectionString: databaseUrl, max: options.max ?? 10, connectionTimeoutMillis: 5000, keepAlive: true });
  pool.on('error', () => undefined);
  if (options.onConnect) pool.on('connect', options.onConnect);
  const client = make(pool);
  const disconnect = client.$disconnect.bind(client);
  Object.defineProperty(client, '$disconnect', {
    value: async () => {
      try {
        await disconnect();
      } finally {
        if (!pool.ended) await pool.end();
      }
    },
  });
  pools.set(client, pool);
  return client;
}

/** The pg pool under a client made by withSharedPool. */
export function poolOf(client: object): Pool {
  const pool = pools.get(client);
  if (!pool) throw new Error('the Prisma client was not made by withSharedPool (no pg pool)');
  return pool;
}
