import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import OpenAI from 'openai';
import { Client } from 'pg';
import { startFleet, type Fleet } from '../../libs/fleet/src';
import { ROOT, adminWithEnv, fleetState } from '../support/fleet-state';

/**
 * kill -9 of the conversations service in the middle of turns: a turn is stored in one
 * transaction, so every stored response has its input and output items and the conversation it
 * belongs to, and no item points at a response that is not there. A fleet of this test's own
 * (its supervisor restarts the killed service), on the e2e database.
 */
describe('conversations killed mid-turn: nothing half-stored', () => {
  const base = fleetState();
  const vhost = `svc_e2e_conv_crash_${process.pid}`;
  const env = { ...base.env, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`, REDIS_KEY_PREFIX: `svce2e:convcrash:${process.pid}:` };
  let fleet: Fleet;
  let client: OpenAI;
  let organizationId = '';
  const db = new Client({ connectionString: env.DATABASE_URL });

  beforeAll(async () => {
    execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
    execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
    fleet = await startFleet({ root: ROOT, env, only: ['vendor-sim', 'billing', 'router', 'conversations', 'edge'], restart: true, logDir: join(ROOT, '.svc', 'logs', `e2e-conv-crash-${process.pid}-${randomBytes(3).toString('hex')}`) });
    const org = adminWithEnv<{ organization_id: string }>(env, 'org', 'create', '--name', `conv-crash-${process.pid}`, '--plan', 'paid', '--credit', '50000000');
    organizationId = org.organization_id;
    const key = adminWithEnv<{ key: string }>(env, 'key', 'create', '--org', organizationId);
    client = new OpenAI({ baseURL: fleet.baseUrl, apiKey: key.key, maxRetries: 0, timeout: 20_000 });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db.end();
    await fleet?.stop();
    execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
  }, 60_000);

  it('every stored response has its items and conversation; no item is orphaned; answered turns are readable', async () => {
    const answered: string[] = [];
    let failures = 0;
    const turn = async (index: number) => {
      try {
        const response = await client.responses.create({ model: 'vendor-1/orion-mini-5', input: `Turn ${index}: say something.` });
        answered.push(response.id);
      } catch {
        failures += 1;
      }
    };
    const load = Promise.all(Array.from({ length: 60 }, (_, index) => new Promise((resolve) => setTimeout(resolve, index * 15)).then(() => turn(index))));
    await new Promise((resolve) => setTimeout(resolve, 300));
    fleet.signal('conversations', 'SIGKILL');
    await load;
    // The killed calls failed cleanly (an error, no hang); the rest were stored.
    expect(answered.length + failures).toBe(60);
    expect(failures).toBeGreaterThan(0);

    const orphans = await db.query(
      `SELECT count(*)::int AS n FROM conversations.item i LEFT JOIN conversations.response r ON r.id = i.response_id WHERE i.response_id IS NOT NULL AND r.id IS NULL`,
    );
    expect(orphans.rows[0].n).toBe(0);
    const incomplete = await db.query(
      `SELECT r.id FROM conversations.response r
         LEFT JOIN conversations.item i ON i.response_id = r.id
        WHERE r.organization_id = $1
        GROUP BY r.id HAVING count(i.id) < 2`,
      [organizationId],
    );
    // A completed turn holds at least its user input and the assistant's answer.
    expect(incomplete.rows).toEqual([]);
    const stored = await db.query('SELECT id FROM conversations.response WHERE organization_id = $1', [organizationId]);
    const storedIds = new Set(stored.rows.map((row: { id: string }) => row.id));
    for (const id of answered) expect(storedIds.has(id)).toBe(true);

    // Restarted by the supervisor: turns work again, and every answered response is readable.
    let recovered = false;
    for (let tries = 0; tries < 50 && !recovered; tries += 1) {
      recovered = await client.responses
        .create({ model: 'vendor-1/orion-mini-5', input: 'After the restart.' })
        .then(() => true)
        .catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          return false;
        });
    }
    expect(recovered).toBe(true);
    for (const id of answered.slice(0, 10)) expect((await client.responses.retrieve(id)).id).toBe(id);
  }, 90_000);
});
