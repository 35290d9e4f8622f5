import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';
import { fleetState, ROOT, spawnEdge } from '../support/fleet-state';

const healthProto = grpc.loadPackageDefinition(
  protoLoader.loadSync(protoPath, { keepCase: true, enums: String }),
) as unknown as { grpc: { health: { v1: { Health: new (address: string, credentials: grpc.ChannelCredentials) => grpc.Client & { Check: Function } } } } };

function healthCheck(port: number, service = ''): Promise<string> {
  const client = new healthProto.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.Check({ service }, { deadline: Date.now() + 3000 }, (error: Error | null, response: { status: string }) => {
      client.close();
      if (error) reject(error);
      else resolve(response.status);
    });
  });
}

describe('the fleet as processes', () => {
  const state = fleetState();

  it.each([
    ['router', 'router', 'svc.router.v1.RouterService'],
    ['billing', 'billing', 'svc.billing.v1.BillingService'],
    ['conversations', 'conversations', ''],
    ['batch', 'batch', ''],
  ])('%s reports SERVING on grpc.health.v1', async (_name, portName, service) => {
    expect(await healthCheck(state.ports[portName])).toBe('SERVING');
    if (service) expect(await healthCheck(state.ports[portName], service)).toBe('SERVING');
  });

  it('edge and workers report ready over HTTP', async () => {
    expect((await fetch(`http://127.0.0.1:${state.ports.edge}/readyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${state.ports.workersHealth}/readyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${state.ports.vendorSim}/healthz`)).status).toBe(200);
  });

  it.each(['edge', 'router', 'billing', 'conversations', 'batch', 'workers', 'vendor-sim'])('%s fails fast with one clear line on a bad configuration', (service) => {
    const result = spawnSync(process.execPath, [join(ROOT, 'services', service, 'dist', 'main.js')], {
      env: { ...process.env, ...state.env, LOG_LEVEL: 'loud', OTEL_SDK_DISABLED: 'true' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^${service}: invalid configuration: LOG_LEVEL: `));
  });

  it('an edge given SIGTERM finishes the stream it is serving, then exits 0', async () => {
    const edge = await spawnEdge();
    // A slow vendor: about 2 s of streaming.
    const response = await fetch(`${edge.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'x-sim-tps': '15' },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', stream: true, max_tokens: 30, messages: [{ role: 'user', content: 'tell me something' }] }),
    });
    expect(response.status).toBe(200);
    edge.process.kill('SIGTERM');
    const body = await response.text();
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(body).not.toContain('"error"');
    const code = await edge.exited;
    if (code !== 0) process.stderr.write(`edge output:\n${edge.output()}\n`);
    expect(code).toBe(0);
    // New connections are refused once it has stopped.
    await expect(fetch(`${edge.baseUrl.replace('/v1', '')}/healthz`)).rejects.toThrow();
  });
});
