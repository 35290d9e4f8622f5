import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFleet, type Fleet } from '../../libs/fleet/src';
import { fleetState, ROOT } from '../support/fleet-state';

/**
 * Two replicas each of edge, router and billing on one machine (a round-robin balancer in front
 * of the edges; each edge reaches both routers and both billings): limits, sessions and balances
 * are shared, not per replica.
 */
describe('the fleet at two replicas', () => {
  let fleet: Fleet;
  let env: Record<string, string>;
  const admin = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim());
  const edgeUrls = () => fleet.instances.filter((instance) => instance.service === 'edge').map((instance) => `http://127.0.0.1:${instance.port}/v1`);

  beforeAll(async () => {
    // Same database, vhost and Redis prefix as the main e2e fleet: its billing consumes the same
    // settlement queue, so balances must live under the same prefix.
    env = { ...fleetState().env, IP_RATE_LIMIT_PER_MINUTE: '1000000', HEALTH_FAILURE_THRESHOLD: '1000000', LOG_LEVEL: 'warn' };
    fleet = await startFleet({ root: ROOT, env, replicas: { edge: 2, router: 2, billing: 2 }, logDir: join(ROOT, '.svc', 'logs', `e2e-replicas-${process.pid}`), restart: false });
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
  }, 60_000);

  const chat = (baseUrl: string, apiKey: string, payload: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, ...headers },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...payload }),
    });

  it('runs two of each and serves through the balancer', async () => {
    expect(fleet.instances.filter((instance) => instance.service === 'edge')).toHaveLength(2);
    expect(fleet.instances.filter((instance) => instance.service === 'router')).toHaveLength(2);
    expect(fleet.instances.filter((instance) => instance.service === 'billing')).toHaveLength(2);
    const org = admin('org', 'create', '--name', 'replicas', '--credit', '10000000');
    const key = admin('key', 'create', '--org', org.organization_id);
    expect((await chat(fleet.baseUrl, key.key)).status).toBe(200);
  });

  it('a key request limit holds in sum across both edges', async () => {
    const org = admin('org', 'create', '--name', 'replicas-limit', '--credit', '10000000');
    const key = admin('key', 'create', '--org', org.organization_id, '--rpm', '10');
    const [first, second] = edgeUrls();
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i % 2 ? first : second, key.key).then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('a session started on one edge and router is continued on the others', async () => {
    const org = admin('org', 'create', '--name', 'replicas-session', '--credit', '10000000');
    const key = admin('key', 'create', '--org', org.organization_id);
    const [first, second] = edgeUrls();
    const session = `replica-${randomUUID()}`;
    const question = { role: 'user', content: 'Debug this failing unit test: expected 3 but received 4 in sum().' };
    const tools = [{ type: 'function', function: { name: 'run', parameters: { type: 'object', properties: {} } } }];
    const opened = await (await chat(first, key.key, { model: 'auto', tools, messages: [question] }, { 'x-svc-session-id': session })).json();
    expect(opened.svc.routing.trigger).toBe('no_prior_decision');
    // Several tool-result turns through the other edge (and so through both routers in turn).
    for (let i = 0; i < 3; i += 1) {
      const turn = await (
        await chat(
          second,
          key.key,
          {
            model: 'auto',
            tools,
            messages: [question, { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'run', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c${i}`, content: 'ok' }],
          },
          { 'x-svc-session-id': session },
        )
      ).json();
      expect(turn.svc.routing.trigger).toBe('cache_hit');
      expect(turn.svc.model_served).toBe(opened.svc.model_served);
    }
  });

  it('one balance: calls billed through both edges and both billings add up', async () => {
    const credit = 5_000_000;
    const org = admin('org', 'create', '--name', 'replicas-balance', '--credit', String(credit));
    const key = admin('key', 'create', '--org', org.organization_id);
    const [first, second] = edgeUrls();
    let spent = 0;
    for (let i = 0; i < 6; i += 1) {
      const body = await (await chat(i % 2 ? first : second, key.key)).json();
      spent += body.svc.cost_micros;
    }
    let balance = NaN;
    for (let i = 0; i < 30; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const response = await fetch(`${first}/models`, { headers: { authorization: `Bearer ${key.key}` } });
      expect(response.status).toBe(200);
      const probe = await chat(second, key.key, { max_tokens: 1 });
      balance = Number(probe.headers.get('x-svc-balance-micros'));
      const probeCost = (await probe.json()).svc.cost_micros;
      if (balance === credit - spent) break;
      spent += probeCost;
    }
    expect(balance).toBe(credit - spent);
  });
});
