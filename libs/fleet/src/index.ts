import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './ports';

export { freePort };

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
  /**
   * Replicas of the stateless services on one machine. Edges sit behind a round-robin TCP
   * balancer on the edge port; every edge reaches all router and billing replicas (gRPC
   * round-robin over their addresses).
   */
  replicas?: Partial<Record<'edge' | 'router' | 'billing', number>>;
  /** Where each service's output goes (one file per service); undefined = inherit stdio. */
  logDir?: string;
  /** Restart crashed services (the dev supervisor); tests turn it off to see crashes. */
  restart?: boolean;
  onEvent?: (message: string) => void;
  startTimeoutMs?: number;
  /** Start only these services (integration tests that need a few peers); default all. */
  only?: ServiceName[];
}

export interface FleetInstance {
  service: ServiceName;
  index: number;
  port: number;
  /** `edge`, `edge#2`, ... */
  name: string;
}

export interface Fleet {
  ports: FleetPorts;
  baseUrl: string;
  processes: Map<ServiceName, ChildProcess>;
  /** Every process, replicas included, with its own port. */
  instances: FleetInstance[];
  /** The current process of one instance (replicas restart under the same name). */
  processOf(name: string): ChildProcess | undefined;
  /** Sends a signal to one service's current process. */
  signal(service: ServiceName, signal: NodeJS.Signals): void;
  stop(): Promise<void>;
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

/** A round-robin TCP balancer: each new connection goes to the next target. */
function startBalancer(port: number, targets: () => number[]): Promise<Server> {
  let next = 0;
  const server = createServer((client: Socket) => {
    const ports = targets();
    const target = ports[next++ % ports.length];
    const upstream = connect({ port: target, host: '127.0.0.1' });
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const root = resolve(options.root);
  const ports = await resolvePorts(options.ports);
  const say = options.onEvent ?? (() => undefined);
  const count = (service: 'edge' | 'router' | 'billing') => Math.max(1, options.replicas?.[service] ?? 1);
  const instances: FleetInstance[] = [];
  for (const service of SERVICE_NAMES) {
    if (options.only && !options.only.includes(service)) continue;
    const replicas = service === 'edge' || service === 'router' || service === 'billing' ? count(service) : 1;
    for (let index = 0; index < replicas; index += 1) {
      // With several edges the edge port belongs to the balancer; every edge gets a port of its own.
      const port = service === 'edge' && replicas > 1 ? await freePort() : index === 0 ? portOf(service, ports) : await freePort();
      instances.push({ service, index, port, name: index === 0 ? service : `${service}#${index + 1}` });
    }
  }
  const addresses = (service: ServiceName) => instances.filter((instance) => instance.service === service).map((instance) => `127.0.0.1:${instance.port}`).join(',');
  const shared: NodeJS.ProcessEnv = {
    ...options.env,
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
    ROUTER_ADDR: addresses('router'),
    BILLING_ADDR: addresses('billing'),
    CONVERSATIONS_ADDR: `127.0.0.1:${ports.conversations}`,
    BATCH_ADDR: `127.0.0.1:${ports.batch}`,
    VENDOR_SIM_URL: `http://127.0.0.1:${ports.vendorSim}`,
    // One machine, many services: metrics ports only where asked for.
    METRICS_PORT: options.env.METRICS_PORT ?? '0',
    // The batch service needs a master key for files; a fleet given none makes one for its life
    // (files it stores do not open in a later fleet: `npm start` passes a kept one).
    FILES_ENCRYPTION_KEY: options.env.FILES_ENCRYPTION_KEY || randomBytes(32).toString('base64'),
  };
  const ownPort = (instance: FleetInstance): NodeJS.ProcessEnv => {
    switch (instance.service) {
      case 'edge':
        return { EDGE_PORT: String(instance.port) };
      case 'router':
        return { ROUTER_PORT: String(instance.port) };
      case 'billing':
        return { BILLING_PORT: String(instance.port) };
      default:
        return {};
    }
  };
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const processes = new Map<string, ChildProcess>();
  const logs = new Map<string, WriteStream>();
  let stopping = false;
  let balancer: Server | undefined;

  const launch = (instance: FleetInstance, restarts: number): ChildProcess => {
    const child = spawn(process.execPath, [...(options.nodeArgs?.[instance.service] ?? []), join(root, 'services', instance.service, 'dist', 'main.js')], {
      cwd: root,
      env: { ...shared, ...ownPort(instance), ...(options.serviceEnv?.[instance.service] ?? {}) },
      stdio: options.logDir ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (options.logDir) {
      let log = logs.get(instance.name);
      if (!log) {
        log = createWriteStream(join(options.logDir, `${instance.name.replace('#', '-')}.log`), { flags: 'a' });
        logs.set(instance.name, log);
      }
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
    }
    processes.set(instance.name, child);
    child.on('exit', (code, signal) => {
      if (stopping || processes.get(instance.name) !== child) return;
      say(`${instance.name} exited (${signal ?? code})`);
      if (options.restart === false) return;
      const delay = Math.min(10_000, 250 * 2 ** Math.min(restarts, 6));
      setTimeout(() => {
        if (stopping) return;
        say(`restarting ${instance.name}`);
        launch(instance, restarts + 1);
      }, delay);
    });
    return child;
  };

  const byService = new Map<ServiceName, ChildProcess>();
  const fleet: Fleet = {
    ports,
    baseUrl: `http://127.0.0.1:${ports.edge}/v1`,
    processes: byService,
    instances,
    processOf: (name) => processes.get(name),
    signal: (service, signal) => processes.get(service)?.kill(signal),
    stop: async () => {
      stopping = true;
      balancer?.close();
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
    for (const group of [instances.filter((instance) => instance.service !== 'edge'), instances.filter((instance) => instance.service === 'edge')]) {
      await Promise.all(
        group.map(async (instance) => {
          const child = launch(instance, 0);
          await waitForPort(instance.port, options.startTimeoutMs ?? 30_000, () => child.exitCode === null);
          say(`${instance.name} ready on ${instance.port}`);
        }),
      );
    }
    const edges = instances.filter((instance) => instance.service === 'edge');
    if (edges.length > 1) {
      balancer = await startBalancer(ports.edge, () => edges.map((edge) => edge.port));
      say(`edge balancer on ${ports.edge} → ${edges.map((edge) => edge.port).join(', ')}`);
    }
    for (const service of SERVICE_NAMES) {
      const child = processes.get(service);
      if (child) byService.set(service, child);
    }
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}
