import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
/** One state file per e2e run (global setup names it in the environment the test workers inherit). */
export const STATE_FILE = process.env.SVC_E2E_STATE_FILE ?? join(ROOT, '.svc', 'e2e-fleet.json');

export interface FleetState {
  baseUrl: string;
  apiKey: string;
  organizationId: string;
  env: Record<string, string>;
  ports: Record<string, number>;
}

/** The running e2e fleet (started once by global-setup.ts for the whole e2e project). */
export function fleetState(): FleetState {
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as FleetState;
}

/** Runs the admin CLI against the e2e environment and returns its --json output. */
export function admin<T = Record<string, unknown>>(...args: string[]): T {
  const state = fleetState();
  const out = execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...state.env }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop() as string) as T;
}

/** The admin CLI against the e2e environment with some variables replaced (a fleet of a test's own). */
export function adminWithEnv<T = Record<string, unknown>>(overrides: Record<string, string>, ...args: string[]): T {
  const out = execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...fleetState().env, ...overrides }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop() as string) as T;
}

/** A fresh organization with credit and a key with the given extra `key create` flags. */
export function newOrganization(options: { credit?: string; plan?: 'paid' | 'free'; keyFlags?: string[]; orgFlags?: string[] } = {}): { organizationId: string; apiKey: string; keyId: string } {
  const org = admin<{ organization_id: string }>('org', 'create', '--name', `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, '--plan', options.plan ?? 'paid', '--credit', options.credit ?? '10000000', ...(options.orgFlags ?? []));
  const key = admin<{ key: string; key_id: string }>('key', 'create', '--org', org.organization_id, ...(options.keyFlags ?? []));
  return { organizationId: org.organization_id, apiKey: key.key, keyId: key.key_id };
}

/** Starts one more edge process against the running fleet (a second replica), with overrides. */
export async function spawnEdge(overrides: Record<string, string> = {}): Promise<{ baseUrl: string; process: import('node:child_process').ChildProcess; output: () => string; exited: Promise<number | null>; stop: () => Promise<number | null> }> {
  const { spawn } = await import('node:child_process');
  const { freePort, waitForPort } = await import('../../libs/fleet/src');
  const state = fleetState();
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'services/edge/dist/main.js')], {
    env: {
      ...process.env,
      ...state.env,
      EDGE_PORT: String(port),
      EDGE_HOST: '127.0.0.1',
      ROUTER_ADDR: `127.0.0.1:${state.ports.router}`,
      BILLING_ADDR: `127.0.0.1:${state.ports.billing}`,
      VENDOR_SIM_URL: `http://127.0.0.1:${state.ports.vendorSim}`,
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      ...overrides,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitForPort(port, 20_000, () => child.exitCode === null);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    process: child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
