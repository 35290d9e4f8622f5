import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, waitForPort } from '../../libs/fleet/src';
import { fleetState, ROOT, spawnEdge } from '../support/fleet-state';

/**
 * The Prometheus endpoint (README, Operations › Metrics) on one more billing process and one more
 * edge that uses it, each with METRICS_PORT on a free port.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format, sample lines only: `name{a="x",b="y"} value`. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const has = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([name, value]) => sample.labels[name] === value);
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) => samples.filter((sample) => sample.name === name && has(sample, labels)).reduce((sum, sample) => sum + sample.value, 0);

async function scrape(port: number): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, samples: parse(text) };
}

/** One more billing process against the e2e database, vhost and Redis prefix. */
async function spawnBilling(overrides: Record<string, string>): Promise<{ port: number; process: ChildProcess; output: () => string; stop: () => Promise<number | null> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'services/billing/dist/main.js')], {
    env: { ...process.env, ...fleetState().env, BILLING_HOST: '127.0.0.1', BILLING_PORT: String(port), LOG_LEVEL: 'warn', ...overrides },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitForPort(port, 20_000, () => child.exitCode === null);
  return {
    port,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('Prometheus metrics', () => {
  let billing: Awaited<ReturnType<typeof spawnBilling>>;
  let edge: Awaited<ReturnType<typeof spawnEdge>>;
  let billingMetrics: number;
  let edgeMetrics: number;
  const state = fleetState();

  const chat = (apiKey: string, headers: Record<string, string> = {}) =>
    fetch(`${edge.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, ...headers },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });

  beforeAll(async () => {
    billingMetrics = await freePort();
    edgeMetrics = await freePort();
    billing = await spawnBilling({ METRICS_PORT: String(billingMetrics), METRICS_HOST: '127.0.0.1' });
    await waitForPort(billingMetrics, 10_000, () => billing.process.exitCode === null);
    edge = await spawnEdge({ BILLING_ADDR: `127.0.0.1:${billing.port}`, METRICS_PORT: String(edgeMetrics), METRICS_HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    await waitForPort(edgeMetrics, 10_000, () => edge.process.exitCode === null);
  }, 60_000);

  afterAll(async () => {
    await edge?.stop();
    await billing?.stop();
  }, 30_000);

  it('edge: requests, durations, errors by code and vendor attempts by route, vendor and model', async () => {
    const served = await chat(state.apiKey);
    expect(served.status).toBe(200);
    await served.json();
    const refused = await chat('sk-svc-not-a-real-key-000000000000000000');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');

    // Counts land when each response has ended; allow the 401's 'finish' to be recorded.
    let samples: Sample[] = [];
    let text = '';
    for (let i = 0; i < 20; i += 1) {
      ({ text, samples } = await scrape(edgeMetrics));
      if (total(samples, 'svc_http_errors_total', { code: 'invalid_api_key' }) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const route = { route: '/v1/chat/completions' };
    expect(text).toContain('# TYPE svc_http_requests_total counter');
    expect(total(samples, 'svc_http_requests_total', { ...route, method: 'POST', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_http_requests_total', { ...route, method: 'POST', status_code: '401' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_http_errors_total', { ...route, code: 'invalid_api_key' })).toBeGreaterThanOrEqual(1);
    // No raw URLs, keys or ids as label values.
    expect(text).not.toContain('sk-svc-not-a-real-key');
    expect(new Set(samples.filter((sample) => sample.name === 'svc_http_requests_total').map((sample) => sample.labels.route))).toEqual(new Set(['/v1/chat/completions']));

    expect(text).toContain('# TYPE svc_http_request_duration_ms histogram');
    const buckets = samples.filter((sample) => sample.name === 'svc_http_request_duration_ms_bucket' && has(sample, { ...route, status_code: '200' }));
    expect(buckets.map((sample) => sample.labels.le)).toEqual(['1', '2', '5', '10', '20', '50', '100', '200', '500', '1000', '2000', '5000', '10000', '30000', '60000', '120000', '600000', '+Inf']);
    expect(buckets.at(-1)!.value).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_http_request_duration_ms_count', { ...route, status_code: '401' })).toBeGreaterThanOrEqual(1);

    expect(total(samples, 'svc_vendor_attempts_total', { vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_vendor_attempt_duration_ms_count', { vendor: 'vendor-1', model: 'vendor-1/orion-mini-5' })).toBeGreaterThanOrEqual(1);
  });

  it('edge: a failed first attempt counts as retryable, and the fallback from it to the model that served', async () => {
    const response = await chat(state.apiKey, { 'x-sim-fault': 'status:500', 'x-sim-fault-model': 'orion-mini-5', 'x-svc-fallback': 'same_vendor' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { svc: { attempts: number; model_served: string } };
    expect(body.svc.attempts).toBe(2);
    const { samples } = await scrape(edgeMetrics);
    expect(total(samples, 'svc_vendor_attempts_total', { vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'retryable' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_vendor_attempts_total', { model: body.svc.model_served, outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_vendor_fallbacks_total', { from_model: 'vendor-1/orion-mini-5', to_model: body.svc.model_served })).toBeGreaterThanOrEqual(1);
  });

  it('billing: queue depth, then settlements written and ledger lag once it has taken a record', async () => {
    const before = await scrape(billingMetrics);
    expect(before.text).toContain('# TYPE svc_queue_depth gauge');
    expect(before.samples.some((sample) => sample.name === 'svc_queue_depth' && sample.labels.queue === 'usage.settle')).toBe(true);
    const written = () => scrape(billingMetrics).then(({ samples }) => total(samples, 'svc_billing_settlements_total'));
    const start = await written();

    // The fleet's billing consumes the same queue (deliveries go round-robin): call until this
    // process has written one of them.
    let after = start;
    for (let call = 0; call < 30 && after <= start; call += 1) {
      const response = await chat(state.apiKey);
      expect(response.status).toBe(200);
      await response.json();
      for (let i = 0; i < 10 && after <= start; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await written();
      }
    }
    expect(after).toBeGreaterThan(start);

    const { text, samples } = await scrape(billingMetrics);
    expect(text).toContain('# TYPE svc_billing_ledger_lag_ms histogram');
    expect(total(samples, 'svc_billing_ledger_lag_ms_count')).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'svc_queue_job_age_ms_count', { queue: 'usage.settle' })).toBeGreaterThanOrEqual(1);
  });
});
