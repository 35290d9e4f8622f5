import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test starts in front of a real server (RabbitMQ, Postgres, Redis) to cut or stall
 * the connections of the code under test only — never the server itself, which other tests use.
 * Test support (integration tests and the chaos suite in test-e2e/chaos); nothing in a service uses it.
 *
 *  - cut():   every open connection is reset and new ones are reset on arrival (the server is "down");
 *  - stall(): nothing is forwarded either way and new connections wait (a partition);
 *  - restore(): connections are forwarded again (stalled ones resume where they were).
 */
export interface TcpProxy {
  readonly port: number;
  readonly url: (template: string) => string;
  cut(): void;
  stall(): void;
  restore(): void;
  /** Connections currently open through the proxy. */
  open(): number;
  close(): Promise<void>;
}

type Mode = 'up' | 'down' | 'stalled';

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'up';
  const pairs = new Set<Pair>();
  const waiting = new Set<Pair>();

  const destroy = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
    waiting.delete(pair);
  };

  const link = (pair: Pair) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => destroy(pair));
    upstream.on('close', () => destroy(pair));
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
  };

  const server: Server = createServer((client) => {
    const pair: Pair = { client, upstream: undefined };
    client.on('error', () => destroy(pair));
    client.on('close', () => destroy(pair));
    if (mode === 'down') {
      client.resetAndDestroy();
      return;
    }
    pairs.add(pair);
    if (mode === 'stalled') {
      client.pause();
      waiting.add(pair);
      return;
    }
    link(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    /** The URL with host and port replaced by the proxy's. */
    url: (template) => {
      const parsed = new URL(template);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      mode = 'down';
      for (const pair of [...pairs]) {
        pair.client.resetAndDestroy();
        pair.upstream?.destroy();
        pairs.delete(pair);
      }
    },
    stall() {
      mode = 'stalled';
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    restore() {
      mode = 'up';
      for (const pair of pairs) {
        if (waiting.has(pair)) {
          waiting.delete(pair);
          pair.client.resume();
          link(pair);
          continue;
        }
        pair.client.resume();
        pair.upstream?.resume();
      }
    },
    open: () => pairs.size,
    close: async () => {
      for (const pair of [...pairs]) destroy(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
