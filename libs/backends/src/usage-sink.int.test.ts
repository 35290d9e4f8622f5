import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connectAmqp, createAmqpClient, type AmqpClient } from '@svc/amqp';
import { ids } from '@svc/ids';
import type { Logger } from '@svc/logger';
import { usageSettle } from '@svc/messages';
import { startTcpProxy, type TcpProxy } from '../../fleet/src/tcp-proxy';
import { createUsageOutbox } from './usage-outbox';
import { createUsageSink, type UsageRecordInput } from './usage-sink';

// The edge's usage sink against the real RabbitMQ (test vhost) and Postgres (svc_test, table
// billing.usage_outbox from billing's migration 0004), with the broker behind a TCP proxy the
// test cuts or stalls and billing.Settle failing: the broker AND billing down together.
// Billing's side (the sweep that settles outbox rows once) is services/billing/src/settlement/outbox.int.test.ts.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const AMQP_URL = process.env.AMQP_URL!;
const DATABASE_URL = process.env.DATABASE_URL!;

function spyLogger() {
  return { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock };
}

function usage(): UsageRecordInput {
  return {
    call_id: ids.callId(),
    organization_id: `org_usage_int_${RUN}`,
    key_id: 'key_usage_int',
    kind: 'chat',
    vendor: 'vendor-1',
    model: 'vendor-1/m',
    line: '',
    input_tokens: 3,
    output_tokens: 4,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    vendor_micros: 5,
    service_fee_micros: 1,
    call_fee_micros: 0,
    cost_micros: 6,
    direct_micros: 0,
    byok: false,
    occurred_at_ms: Date.now(),
    reserved_micros: 0,
    plan: '',
    spend_period: '',
    member_id: '',
    baseline_pending: false,
  };
}

describe('edge usage sink with the broker and billing down together (real RabbitMQ and Postgres)', () => {
  const db = new Client({ connectionString: DATABASE_URL });
  const written: string[] = [];
  let proxy: TcpProxy;
  let amqp: AmqpClient;
  const outbox = createUsageOutbox({ databaseUrl: DATABASE_URL });
  const billingDown = jest.fn(async () => {
    throw new Error('14 UNAVAILABLE: No connection established');
  });

  /** The row in the outbox, or (if a concurrently running billing test swept it) the ledger row billing wrote from it. */
  async function stored(callId: string): Promise<'outbox' | 'ledger' | undefined> {
    const row = await db.query<{ record: UsageRecordInput }>('SELECT record FROM billing.usage_outbox WHERE call_id = $1', [callId]);
    if (row.rowCount === 1) return 'outbox';
    const ledger = await db.query('SELECT 1 FROM billing.ledger_entry WHERE call_id = $1', [callId]);
    return ledger.rowCount === 1 ? 'ledger' : undefined;
  }

  beforeAll(async () => {
    await db.connect();
    const target = new URL(AMQP_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
    amqp = createAmqpClient({ url: proxy.url(AMQP_URL), logger: spyLogger(), name: 'edge-usage-int-test', queues: [usageSettle.name], confirmTimeoutMs: 300, connectTimeoutMs: 500, reconnect: { initialMs: 50, maxMs: 200 } });
    await amqp.waitReady(10_000);
  });

  afterAll(async () => {
    await db.query('DELETE FROM billing.usage_outbox WHERE call_id = ANY($1::text[])', [written]);
    await db.query('DELETE FROM billing.ledger_entry WHERE call_id = ANY($1::text[])', [written]);
    // Records that did go through the broker here sit in the test vhost's usage.settle: take them out.
    const direct = await connectAmqp(AMQP_URL);
    try {
      for (;;) {
        const message = await direct.channel.get(usageSettle.name, { noAck: false });
        if (!message) break;
        const callId = (JSON.parse(message.content.toString()) as { call_id?: string }).call_id;
        if (callId && written.includes(callId)) direct.channel.ack(message);
        else {
          direct.channel.nack(message, false, true);
          break;
        }
      }
    } finally {
      await direct.close();
    }
    await amqp.close();
    await proxy.close();
    await outbox.close();
    await db.end();
  });

  it('broker unreachable and billing down: the record is durably in the outbox and record() returned at once', async () => {
    const logger = spyLogger();
    const sink = createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), outbox, settleDirect: billingDown, logger });
    proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const record = usage();
    written.push(record.call_id);
    const started = Date.now();
    await sink.record(record);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stored(record.call_id)).toBeDefined();
    const [row] = (await db.query<{ record: UsageRecordInput }>('SELECT record FROM billing.usage_outbox WHERE call_id = $1', [record.call_id])).rows;
    if (row) expect(row.record).toMatchObject({ call_id: record.call_id, cost_micros: 6, organization_id: record.organization_id });
    expect(billingDown).not.toHaveBeenCalled();
    expect(sink.held()).toBe(0);
    await sink.close();
    proxy.restore();
    await amqp.waitReady(10_000);
  });

  it('a partitioned broker: the confirm wait is bounded, then the outbox takes the record; a repeat of the call_id stays one row', async () => {
    const logger = spyLogger();
    const sink = createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), outbox, settleDirect: billingDown, logger });
    await amqp.waitReady(10_000);
    proxy.stall();
    const record = usage();
    written.push(record.call_id);
    const started = Date.now();
    await sink.record(record);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(await stored(record.call_id)).toBeDefined();
    await outbox.write(record);
    const count = await db.query('SELECT count(*)::int AS n FROM billing.usage_outbox WHERE call_id = $1', [record.call_id]);
    expect((count.rows[0] as { n: number }).n).toBeLessThanOrEqual(1);
    await sink.close();
    proxy.restore();
  });

  it('once the broker is back, records go to the queue again', async () => {
    const sink = createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), outbox, settleDirect: billingDown, logger: spyLogger() });
    await amqp.waitReady(15_000);
    const record = usage();
    written.push(record.call_id);
    await sink.record(record);
    expect(await stored(record.call_id)).toBeUndefined();
    await sink.close();
  }, 30_000);
});
