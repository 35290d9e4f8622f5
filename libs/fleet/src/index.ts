import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Runs the whole fleet as child processes under one supervisor: each service gets its port
 * and peers' addresses, a crashed service is restarted with backoff, and stop() sends SIGTERM
 * to all and waits for them to drain. Used by `npm start`, the end-to-end tests and benches.
 */

export const SERVICE_NAMES = ['vendor-sim', 'billing', 'router', 'conversations', 'batch', 'workers', 'edge'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface FleetPorts {
  edge: number;
  router: number;
  billing: number;
  conversations: number;
  batch: number;
  vendorSim: number;
  workersHealth: number;
}

export interface FleetOptions {
  root: string;
  /** Base environment: DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX, AMQP_URL, LOG_LEVEL, ... */
  env: NodeJS.ProcessEnv;
  ports?: Partial<FleetPorts>;
  /** Per-service environment additions. */
  serviceEnv?: Partial<Record<ServiceName, NodeJS.ProcessEnv>>;
  /** Per-service node flags (e.g. --cpu-prof for profiling a benchmark run). */
  nodeArgs?: Partial<Record<ServiceName, string[]>>;
  /** Where each service's output goes (one file per service); undefined = inherit stdio. */
  logDir?: string;
  /** Restart crashed services (the dev supervisor); tests turn it off to see crashes. */
  restart?: boolean;
  onEvent?: (message: string) => void;
  startTimeoutMs?: number;
}

export interface Fleet {
  ports: FleetPorts;
  baseUrl: string;
  processes: Map<ServiceName, ChildProcess>;
  /** Sends a signal to one service's current process. */
  signal(service: ServiceName, signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolvePort(port));
    });
  });
}

export async function waitForPort(port: number, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`process exited before port ${port} opened`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        done(true);
      });
      socket.on('error', () => done(false));
    });
    if (open) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
}

async function resolvePorts(ports: Partial<FleetPorts> | undefined): Promise<FleetPorts> {
  return {
    edge: ports?.edge ?? (await freePort()),
    router: ports?.router ?? (await freePort()),
    billing: ports?.billing ?? (await freePort()),
    conversations: ports?.conversations ?? (await freePort()),
    batch: ports?.batch ?? (await freePort()),
    vendorSim: ports?.vendorSim ?? (await freePort()),
    workersHealth: ports?.workersHealth ?? (await freePort()),
  };
}

function portOf(service: ServiceName, ports: FleetPorts): number {
  switch (service) {
    case 'edge':
      return ports.edge;
    case 'router':
      return ports.router;
    case 'billing':
      return ports.billing;
    case 'conversations':
      return ports.conversations;
    case 'batch':
      return ports.batch;
    case 'vendor-sim':
      return ports.vendorSim;
    case 'workers':
      return ports.workersHealth;
  }
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const root = resolve(options.root);
  const ports = await resolvePorts(options.ports);
  const say = options.onEvent ?? (() => undefined);
  const shared: NodeJS.ProcessEnv = {
    ...options.env,
    EDGE_PORT: String(ports.edge),
    ROUTER_PORT: String(ports.router),
    BILLING_PORT: String(ports.billing),
    CONVERSATIONS_PORT: String(ports.conversations),
    BATCH_PORT: String(ports.batch),
    VENDOR_SIM_PORT: String(ports.vendorSim),
    WORKERS_HEALTH_PORT: String(ports.workersHealth),
    EDGE_HOST: options.env.EDGE_HOST ?? '127.0.0.1',
    ROUTER_HOST: '127.0.0.1',
    BILLING_HOST: '127.0.0.1',
    CONVERSATIONS_HOST: '127.0.0.1',
    BATCH_HOST: '127.0.0.1',
    WORKERS_HOST: '127.0.0.1',
    ROUTER_ADDR: `127.0.0.1:${ports.router}`,
    BILLING_ADDR: `127.0.0.1:${ports.billing}`,
    CONVERSATIONS_ADDR: `127.0.0.1:${ports.conversations}`,
    BATCH_ADDR: `127.0.0.1:${ports.batch}`,
    VENDOR_SIM_URL: `http://127.0.0.1:${ports.vendorSim}`,
    // One machine, many services: metrics ports only where asked for.
    METRICS_PORT: options.env.METRICS_PORT ?? '0',
  };
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const processes = new Map<ServiceName, ChildProcess>();
  const logs = new Map<ServiceName, WriteStream>();
  let stopping = false;

  const launch = (service: ServiceName, restarts: number): ChildProcess => {
    const child = spawn(process.execPath, [...(options.nodeArgs?.[service] ?? []), join(root, 'services', service, 'dist', 'main.js')], {
      cwd: root,
      env: { ...shared, ...(options.serviceEnv?.[service] ?? {}) },
      stdio: options.logDir ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (options.logDir) {
      let log = logs.get(service);
      if (!log) {
        log = createWriteStream(join(options.logDir, `${service}.log`), { flags: 'a' });
        logs.set(service, log);
      }
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
    }
    processes.set(service, child);
    child.on('exit', (code, signal) => {
      if (stopping || processes.get(service) !== child) return;
      say(`${service} exited (${signal ?? code})`);
      if (options.restart === false) return;
      const delay = Math.min(10_000, 250 * 2 ** Math.min(restarts, 6));
      setTimeout(() => {
        if (stopping) return;
        say(`restarting ${service}`);
        launch(service, restarts + 1);
      }, delay);
    });
    return child;
  };

  const order: ServiceName[][] = [['vendor-sim', 'billing', 'router', 'conversations', 'batch', 'workers'], ['edge']];
  const fleet: Fleet = {
    ports,
    baseUrl: `http://127.0.0.1:${ports.edge}/v1`,
    processes,
    signal: (service, signal) => processes.get(service)?.kill(signal),
    stop: async () => {
      stopping = true;
      const exits = [...processes.values()].filter((child) => child.exitCode === null && child.signalCode === null).map((child) => new Promise<void>((done) => {
        const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      }));
      await Promise.all(exits);
      for (const log of logs.values()) log.end();
    },
  };
  try {
    for (const group of order) {
      await Promise.all(
        group.map(async (service) => {
          const child = launch(service, 0);
          await waitForPort(portOf(service, ports), options.startTimeoutMs ?? 30_000, () => child.exitCode === null);
          say(`${service} ready on ${portOf(service, ports)}`);
        }),
      );
    }
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}
