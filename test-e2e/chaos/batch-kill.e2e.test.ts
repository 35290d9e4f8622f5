import OpenAI, { toFile } from 'openai';
import { sleep, startChaosFleet, type ChaosFleet } from './support/chaos-fleet';
import { reconcile, report } from './support/reconcile';
import type { Outcome } from './support/traffic';

/**
 * Chaos: kill -9 of the workers, twice, while a 2,000-line batch runs (issue 15, Deliver 5:
 * "a worker killed mid-batch → the batch resumes from the unfinished lines, nothing is billed
 * twice or lost"). The supervisor restarts the workers; the chunks they held are redelivered,
 * lines already committed are skipped, the rest run again under the same call ids. Afterwards:
 * the batch is completed, every input line is in the output file exactly once, and the ledger is
 * reconciled line by line against the answered lines (no line lost, none billed twice, no ledger
 * row for a line that is not in the output).
 */
jest.setTimeout(240_000);

const LINES = 2_000;
const MODEL = 'vendor-1/orion-mini-5';

describe('chaos: workers SIGKILLed during a 2,000-line batch', () => {
  let chaos: ChaosFleet;

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'batchkill', restart: true, env: { BATCH_TICK_MS: '200', BATCH_CHUNK_LINES: '100' } });
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  it('resumes after each kill; every line answered once, billed once', async () => {
    const organization = chaos.newOrganization();
    const client = new OpenAI({ baseURL: chaos.baseUrl, apiKey: organization.apiKey, maxRetries: 2, timeout: 30_000 });
    const text = Array.from({ length: LINES }, (_, index) => JSON.stringify({ custom_id: `k-${index}`, method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: `kill test ${index}` }] } })).join('\n');
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'kill.jsonl'), purpose: 'batch' });
    // Each line waits a little at the vendor, so the kills land with lines in flight.
    const created = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }, { headers: { 'x-sim-ttft-ms': '40' } });

    const retrieve = async () => {
      for (;;) {
        try {
          return await client.batches.retrieve(created.id);
        } catch {
          await sleep(200);
        }
      }
    };
    const kills: Array<{ at_completed: number; pid: number | undefined }> = [];
    for (const threshold of [400, 1100]) {
      for (;;) {
        const batch = await retrieve();
        if (batch.request_counts!.completed >= threshold || ['completed', 'failed'].includes(batch.status)) break;
        await sleep(50);
      }
      const workers = chaos.fleet.processOf('workers')!;
      kills.push({ at_completed: (await retrieve()).request_counts!.completed, pid: workers.pid });
      workers.kill('SIGKILL');
      await sleep(300);
    }

    const killedAt = Date.now();
    let batch = await retrieve();
    while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status) && Date.now() - killedAt < 150_000) {
      await sleep(250);
      batch = await retrieve();
    }
    const endedAfterKillMs = Date.now() - killedAt;
    expect(batch.status).toBe('completed');
    const output = (await (await client.files.content(batch.output_file_id!)).text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
    const errors = batch.error_file_id ? (await (await client.files.content(batch.error_file_id)).text()).split('\n').filter(Boolean) : [];
    const customIds = new Set(output.map((line) => line.custom_id as string));

    const outcomes: Outcome[] = output.map((line) => ({
      label: 'batch-line',
      organizationId: organization.organizationId,
      start: 0,
      end: 0,
      status: line.response.status_code,
      answered: line.response.status_code === 200,
      callId: line.response.body.svc.call_id,
    }));
    const reconciliation = await reconcile(chaos, [organization.organizationId], outcomes, { timeoutMs: 60_000 });
    const billedSum = output.reduce((sum, line) => sum + line.response.body.svc.cost_micros, 0);
    const ledgerSum = await chaos.db.query<{ sum: string | null }>('SELECT sum(cost_micros)::text AS sum FROM billing.ledger_entry WHERE organization_id = $1', [organization.organizationId]);
    report('batch_kill', {
      lines: LINES,
      kills,
      ended_after_last_kill_ms: endedAfterKillMs,
      request_counts: batch.request_counts,
      output_lines: output.length,
      error_lines: errors.length,
      unique_custom_ids: customIds.size,
      ...reconciliation,
      batch_billed_micros: (batch as unknown as { svc: { cost: { billed_micros: number } } }).svc.cost.billed_micros,
      output_billed_micros: billedSum,
      ledger_micros: Number(ledgerSum.rows[0]?.sum ?? 0),
    });

    expect(kills).toHaveLength(2);
    expect(batch.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });
    expect(output).toHaveLength(LINES);
    expect(errors).toHaveLength(0);
    expect(customIds.size).toBe(LINES);
    expect(reconciliation).toMatchObject({ answered: LINES, ledger_rows: LINES, lost: 0, double: 0, phantom: 0, counters_not_moved: 0 });
    expect((batch as unknown as { svc: { cost: { billed_micros: number } } }).svc.cost.billed_micros).toBe(billedSum);
    expect(Number(ledgerSum.rows[0]?.sum ?? 0)).toBe(billedSum);
  });
});
