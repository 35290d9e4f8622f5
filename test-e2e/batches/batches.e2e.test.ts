import OpenAI, { toFile } from 'openai';
import { admin, fleetState, newOrganization } from '../support/fleet-state';

/**
 * Batches (spec: Batch object, Batch endpoints, States and transitions, Errors, Limits; RULINGS 7
 * and 15) through the official `openai` SDK: a batch to completion with its output and error
 * files read back, each failure reason, cancel mid-run with the counts adding up, and the 21st
 * open batch refused. Lines run on the fleet's workers against vendor-sim.
 */
jest.setTimeout(120_000);

const state = fleetState();
const sdk = (apiKey = state.apiKey) => new OpenAI({ baseURL: state.baseUrl, apiKey, maxRetries: 0, timeout: 60_000 });
const BATCHABLE = 'vendor-1/orion-mini-5';
const NOT_BATCHABLE = 'vendor-4/atlas-3.3-70b';

type Line = { custom_id: string; method?: string; url?: string; body: Record<string, unknown> };
const jsonl = (lines: Line[]) => lines.map((line) => JSON.stringify({ method: 'POST', url: '/v1/chat/completions', ...line })).join('\n') + (lines.length ? '\n' : '');
const chat = (content: string, model = BATCHABLE, extra: Record<string, unknown> = {}) => ({ model, max_tokens: 16, messages: [{ role: 'user', content }], ...extra });

async function upload(client: OpenAI, text: string) {
  return client.files.create({ file: await toFile(Buffer.from(text), 'input.jsonl'), purpose: 'batch' });
}

const ENDED = ['completed', 'failed', 'expired', 'cancelled'];
async function settled(client: OpenAI, id: string, timeoutMs = 60_000): Promise<OpenAI.Batches.Batch> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (ENDED.includes(batch.status)) return batch;
    if (Date.now() > until) throw new Error(`batch ${id} still ${batch.status} after ${timeoutMs} ms: ${JSON.stringify(batch)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function readLines(client: OpenAI, fileId: string): Promise<any[]> {
  const response = await client.files.content(fileId);
  const text = await response.text();
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

async function createBatch(client: OpenAI, lines: Line[], options: { allowStandardPrice?: boolean; headers?: Record<string, string>; metadata?: Record<string, string> } = {}) {
  const file = await upload(client, jsonl(lines));
  return client.batches.create(
    { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', ...(options.metadata ? { metadata: options.metadata } : {}), ...(options.allowStandardPrice ? { svc: { allow_standard_price: true } } : {}) } as never,
    options.headers ? { headers: options.headers } : undefined,
  );
}

describe('batches through the official SDK', () => {
  it('lines sharing a long prefix on the explicit-marker vendor read a cache written once for the batch; other lines write nothing (Caching rules 6)', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const model = 'vendor-2/lyric-mini-3';
    const handbook = Array.from({ length: 120 }, (_, i) => `Rule ${i + 1}: requests of kind ${i} go to desk ${i % 7} before noon.`).join('\n');
    const withHandbook = (question: string) => ({ model, max_tokens: 16, messages: [{ role: 'system', content: handbook }, { role: 'user', content: question }] });
    const lines: Line[] = [
      ...Array.from({ length: 4 }, (_, index) => ({ custom_id: `shared-${index}`, body: withHandbook(`Where do requests of kind ${index} go?`) })),
      { custom_id: 'alone', body: { model, max_tokens: 16, messages: [{ role: 'system', content: 'Answer briefly.' }, { role: 'user', content: 'Hello?' }] } },
    ];
    const batch = await settled(client, (await createBatch(client, lines)).id);
    expect(batch.status).toBe('completed');
    const output = new Map((await readLines(client, batch.output_file_id!)).map((line) => [line.custom_id, line.response.body.svc.cache]));
    const shared = [0, 1, 2, 3].map((index) => output.get(`shared-${index}`));
    // The prefix written once for the batch, then read by the others (each still writes its own
    // short last message, where a marker sits too).
    const [writer, ...readers] = [...shared].sort((a, b) => b.write_tokens - a.write_tokens);
    expect(writer).toMatchObject({ read_tokens: 0, write_tokens: expect.any(Number) });
    expect(writer.write_tokens).toBeGreaterThan(2000);
    for (const reader of readers) {
      expect(reader.read_tokens).toBeGreaterThan(2000);
      expect(reader.read_tokens).toBeLessThanOrEqual(writer.write_tokens);
      expect(reader.write_tokens).toBeLessThan(50);
    }
    for (const cache of shared) expect(cache.ttl_applied).toBe('5m');
    expect(output.get('alone')).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
  });

  it('runs a batch to completion: every line once across the output and error files, counts, costs and timestamps', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const lines: Line[] = [
      ...Array.from({ length: 6 }, (_, index) => ({ custom_id: `ok-${index}`, body: chat(`say ${index}`) })),
      { custom_id: 'with-options', body: chat('x', BATCHABLE, { temperature: 1.5, svc: { fallback: 'none' } }) },
    ];
    const created = await createBatch(client, lines, { metadata: { job: 'nightly' } });
    expect(created).toMatchObject({ object: 'batch', endpoint: '/v1/chat/completions', completion_window: '24h', status: 'validating', output_file_id: null, error_file_id: null, errors: null, metadata: { job: 'nightly' } });
    expect(created.id).toMatch(/^batch_[0-9a-f]{32}$/);
    expect(created.expires_at! - created.created_at).toBe(24 * 3600);
    const batch = await settled(client, created.id);
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 7, completed: 7, failed: 0 });
    for (const field of ['in_progress_at', 'finalizing_at', 'completed_at'] as const) expect(batch[field]).toEqual(expect.any(Number));
    expect(batch.failed_at).toBeNull();
    expect(batch.cancelled_at).toBeNull();
    expect(batch.error_file_id).toBeNull();
    const output = await readLines(client, batch.output_file_id!);
    expect(output.map((line) => line.custom_id).sort()).toEqual(lines.map((line) => line.custom_id).sort());
    const svc = (batch as unknown as { svc: { tier: string; cost: Record<string, number> } }).svc;
    expect(svc.tier).toBe('batch');
    let billed = 0;
    for (const line of output) {
      expect(line).toEqual({ id: expect.stringMatching(/^batch_req_[0-9a-f]{32}$/), custom_id: expect.any(String), response: { status_code: 200, request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/), body: expect.objectContaining({ object: 'chat.completion' }) }, error: null });
      expect(line.response.body.svc.tier).toEqual({ requested: 'batch', applied: 'batch' });
      expect(line.response.body.svc.cache.ttl_applied).toBe('');
      billed += line.response.body.svc.cost_micros;
    }
    expect(svc.cost.billed_micros).toBe(billed);
    expect(svc.cost.classifier_micros).toBe(0);
    const file = await client.files.retrieve(batch.output_file_id!);
    expect(file).toMatchObject({ purpose: 'batch_output', status: 'processed' });
    const list = await client.batches.list({ limit: 1 });
    expect(list.data[0]!.id).toBe(batch.id);
  });

  it('writes refused lines to the error file with the error envelope, and serves models without a batch tier at standard under allow_standard_price', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const created = await createBatch(
      client,
      [
        { custom_id: 'std', body: chat('hello', NOT_BATCHABLE) },
        { custom_id: 'refused', body: chat('hello', BATCHABLE, { svc: { fallback: 'none' } }) },
      ],
      { allowStandardPrice: true, headers: { 'x-sim-fault': 'status:400', 'x-sim-fault-model': BATCHABLE.split('/')[1]! } },
    );
    const batch = await settled(client, created.id);
    expect(batch.status).toBe('completed');
    expect(batch.request_counts!.total).toBe(2);
    const output = await readLines(client, batch.output_file_id!);
    const errors = batch.error_file_id ? await readLines(client, batch.error_file_id) : [];
    expect(output.length + errors.length).toBe(2);
    const std = output.find((line) => line.custom_id === 'std');
    // Asked at batch like every line of a batch, served at standard: no_batch_tier.
    expect(std.response.body.svc.tier).toEqual({ requested: 'batch', applied: 'standard', fallback: 'no_batch_tier' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toEqual({ id: expect.any(String), custom_id: 'refused', response: { status_code: expect.any(Number), request_id: expect.any(String), body: { error: { message: expect.any(String), type: expect.any(String), param: null, code: expect.any(String) } } }, error: null });
    expect(batch.request_counts!.failed).toBe(1);
  });

  it('a line with an image URL is validated as a chat request and its image fetched when it runs: one that cannot be is that line\'s invalid_image_url', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const image = { model: BATCHABLE, max_tokens: 16, messages: [{ role: 'user', content: [{ type: 'text', text: 'describe' }, { type: 'image_url', image_url: { url: 'http://127.0.0.1:8080/cat.png' } }] }] };
    const batch = await settled(client, (await createBatch(client, [{ custom_id: 'image', body: image }, { custom_id: 'text', body: chat('hello') }])).id);
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toMatchObject({ total: 2, completed: 1, failed: 1 });
    const errors = await readLines(client, batch.error_file_id!);
    expect(errors).toEqual([{ id: expect.any(String), custom_id: 'image', response: { status_code: 400, request_id: expect.any(String), body: { error: { message: expect.any(String), type: 'invalid_request_error', param: 'messages[0].content[1].image_url.url', code: 'invalid_image_url' } } }, error: null }]);
  });

  it('without allow_standard_price a failing line never falls back to a model without a batch tier (no standard price the batch did not allow)', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const lines = Array.from({ length: 3 }, (_, index) => ({ custom_id: `f-${index}`, body: chat(`hello ${index}`, BATCHABLE, { svc: { fallback: 'cross_vendor' } }) }));
    const created = await createBatch(client, lines, { headers: { 'x-sim-fault': 'status:500', 'x-sim-fault-model': BATCHABLE.split('/')[1]! } });
    const batch = await settled(client, created.id);
    expect(batch.status).toBe('completed');
    const output = batch.output_file_id ? await readLines(client, batch.output_file_id) : [];
    const errors = batch.error_file_id ? await readLines(client, batch.error_file_id) : [];
    expect(output.length + errors.length).toBe(3);
    // Whatever answered did so at the batch tier, on a model that has one.
    for (const line of output) expect(line.response.body.svc.tier).toEqual({ requested: 'batch', applied: 'batch' });
  });

  describe('fails before any line runs, with errors (1-based line) and nothing billed', () => {
    const cases: Array<[string, Line[], { code: string; line: number | null }, { credit?: string; keyFlags?: string[] }]> = [
      ['model_not_batchable', [{ custom_id: 'a', body: chat('x') }, { custom_id: 'b', body: chat('x', NOT_BATCHABLE) }], { code: 'model_not_batchable', line: 2 }, {}],
      ['model_not_found', [{ custom_id: 'a', body: chat('x', 'vendor-1/no-such-model') }], { code: 'model_not_found', line: 1 }, {}],
      ['invalid_url', [{ custom_id: 'a', body: chat('x') }, { custom_id: 'b', url: '/v1/embeddings', body: chat('x') }], { code: 'invalid_url', line: 2 }, {}],
      ['missing_messages', [{ custom_id: 'a', body: { model: BATCHABLE, messages: [] } }], { code: 'missing_messages', line: 1 }, {}],
      ['invalid_request', [{ custom_id: 'a', body: chat('x', BATCHABLE, { temperature: 7 }) }], { code: 'invalid_request', line: 1 }, {}],
      ['no_batch_model', [{ custom_id: 'a', body: chat('x', 'auto') }], { code: 'no_batch_model', line: 1 }, { keyFlags: ['--models', NOT_BATCHABLE] }],
      ['insufficient_credits', [{ custom_id: 'a', body: chat('x', BATCHABLE, { max_tokens: 30000 }) }], { code: 'insufficient_credits', line: null }, { credit: '10' }],
      ['empty_file', [], { code: 'empty_file', line: null }, {}],
    ];
    // Every row has four elements: jest.each reads a test function with more parameters than the row as one taking `done`.
    it.each(cases)('%s', async (_name, lines, expected, orgOptions) => {
      const org = newOrganization({ credit: orgOptions.credit ?? '5000000', ...(orgOptions.keyFlags ? { keyFlags: orgOptions.keyFlags } : {}) });
      const client = sdk(org.apiKey);
      const created = await createBatch(client, lines);
      const batch = await settled(client, created.id);
      expect(batch.status).toBe('failed');
      expect(batch.failed_at).toEqual(expect.any(Number));
      expect(batch.errors!.object).toBe('list');
      expect(batch.errors!.data![0]).toMatchObject({ code: expected.code, line: expected.line, message: expect.any(String) });
      if (expected.code === 'model_not_batchable') expect(batch.errors!.data![0]!.message).toMatch(/allow_standard_price/);
      if (expected.code === 'insufficient_credits') expect(batch.errors!.data![0]!.message).toMatch(/estimated cost \(\d+ micros.*balance \(\d+ micros/);
      expect(batch.output_file_id).toBeNull();
      // No line ran: every line counts as failed, so the counts add up as for any ended batch.
      expect(batch.request_counts).toEqual({ total: lines.length, completed: 0, failed: lines.length });
      expect((batch as unknown as { svc: { cost: { billed_micros: number } } }).svc.cost.billed_micros).toBe(0);
      await expect(client.batches.cancel(batch.id)).rejects.toMatchObject({ status: 400, code: 'batch_not_cancellable' });
    });
  });

  it('cancels mid-run: finished lines kept and billed, the rest batch_cancelled with response null, counts adding up', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const lines = Array.from({ length: 400 }, (_, index) => ({ custom_id: `c-${index}`, body: chat(`line ${index}`) }));
    const created = await createBatch(client, lines, { headers: { 'x-sim-ttft-ms': '150' } });
    for (;;) {
      const current = await client.batches.retrieve(created.id);
      if (current.request_counts!.completed > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cancelling = await client.batches.cancel(created.id);
    expect(cancelling.status).toBe('cancelling');
    expect(cancelling.cancelling_at).toEqual(expect.any(Number));
    const batch = await settled(client, created.id);
    expect(batch.status).toBe('cancelled');
    expect(batch.cancelled_at).toEqual(expect.any(Number));
    const { total, completed, failed } = batch.request_counts!;
    expect(total).toBe(400);
    expect(completed + failed).toBe(400);
    expect(completed).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    const output = await readLines(client, batch.output_file_id!);
    const errors = await readLines(client, batch.error_file_id!);
    expect(output).toHaveLength(completed);
    expect(errors).toHaveLength(failed);
    expect(new Set([...output, ...errors].map((line) => line.custom_id)).size).toBe(400);
    for (const line of errors) expect(line).toMatchObject({ response: null, error: { code: 'batch_cancelled', message: expect.any(String) } });
    const svc = (batch as unknown as { svc: { cost: { billed_micros: number } } }).svc;
    expect(svc.cost.billed_micros).toBe(output.reduce((sum, line) => sum + line.response.body.svc.cost_micros, 0));
    await expect(client.batches.cancel(batch.id)).rejects.toMatchObject({ status: 400, code: 'batch_not_cancellable' });
  });

  it('cancelled right after it is created: every input line once across the two files, the counts adding up to total', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    const lines = Array.from({ length: 2000 }, (_, index) => ({ custom_id: `early-${index}`, body: chat(`line ${index}`) }));
    const created = await createBatch(client, lines, { headers: { 'x-sim-ttft-ms': '150' } });
    const cancelling = await client.batches.cancel(created.id);
    expect(cancelling.status).toBe('cancelling');
    // Cancelled while it was still validating: its lines had not been read.
    expect(cancelling.in_progress_at ?? null).toBeNull();
    const batch = await settled(client, created.id);
    expect(batch.status).toBe('cancelled');
    const { total, completed, failed } = batch.request_counts!;
    expect(total).toBe(2000);
    expect(completed + failed).toBe(2000);
    const output = batch.output_file_id ? await readLines(client, batch.output_file_id) : [];
    const errors = batch.error_file_id ? await readLines(client, batch.error_file_id) : [];
    expect(output).toHaveLength(completed);
    expect(errors).toHaveLength(failed);
    expect([...output, ...errors].map((line) => line.custom_id).sort()).toEqual(lines.map((line) => line.custom_id).sort());
    for (const line of errors) expect(line).toMatchObject({ id: expect.stringMatching(/^batch_req_[0-9a-f]{32}$/), response: null, error: { code: 'batch_cancelled', message: expect.any(String) } });
  });

  it('refuses the 21st open batch with 429 too_many_open_batches; validation errors and 404s in the envelope', async () => {
    const org = newOrganization({ credit: '50000000' });
    const client = sdk(org.apiKey);
    // Lines that wait at the vendor keep each batch open.
    const file = await upload(client, jsonl(Array.from({ length: 50 }, (_, index) => ({ custom_id: `o-${index}`, body: chat('x') }))));
    const slow = { headers: { 'x-sim-ttft-ms': '2000' } };
    const open: string[] = [];
    for (let index = 0; index < 20; index += 1) open.push((await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }, slow)).id);
    const refused = await fetch(`${state.baseUrl}/batches`, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ error: { message: expect.any(String), type: 'rate_limit_error', param: null, code: 'too_many_open_batches' } });
    // The file is in use while they run.
    await expect(client.files.delete(file.id)).rejects.toMatchObject({ status: 409 });
    for (const id of open) await client.batches.cancel(id);

    const post = async (body: unknown) => {
      const response = await fetch(`${state.baseUrl}/batches`, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { error: { code: string; param: string | null } } };
    };
    expect(await post({ endpoint: '/v1/chat/completions' })).toMatchObject({ status: 400, body: { error: { code: 'missing_field', param: 'input_file_id' } } });
    expect(await post({ input_file_id: file.id })).toMatchObject({ status: 400, body: { error: { code: 'missing_field', param: 'endpoint' } } });
    expect(await post({ input_file_id: file.id, endpoint: '/v1/embeddings' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_value', param: 'endpoint' } } });
    expect(await post({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '48h' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_value', param: 'completion_window' } } });
    expect(await post({ input_file_id: file.id, endpoint: '/v1/chat/completions', metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) })).toMatchObject({ status: 400, body: { error: { code: 'invalid_value', param: 'metadata' } } });
    // Text that cannot be stored is refused as on the other endpoints, not a 500.
    expect(await post({ input_file_id: file.id, endpoint: '/v1/chat/completions', metadata: { a: '\u0000' } })).toMatchObject({ status: 400, body: { error: { code: 'invalid_value', param: 'metadata.a' } } });
    expect(await post({ input_file_id: file.id, endpoint: '/v1/chat/completions', svc: { allow_standard_price: 'yes' } })).toMatchObject({ status: 400, body: { error: { code: 'invalid_value', param: 'svc.allow_standard_price' } } });
    expect(await post({ input_file_id: 'file_00000000000000000000000000000000', endpoint: '/v1/chat/completions' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    // Another organization's batch is not found.
    const other = sdk(newOrganization().apiKey);
    await expect(other.batches.retrieve(open[0]!)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(other.batches.cancel(open[0]!)).rejects.toMatchObject({ status: 404 });
    // Pages: newest first, limit and after.
    const page = await client.batches.list({ limit: 5 });
    expect(page.data).toHaveLength(5);
    expect(page.data.map((batch) => batch.id)).toEqual([...open].reverse().slice(0, 5));
    const next = await client.batches.list({ limit: 5, after: page.data[4]!.id });
    expect(next.data[0]!.id).toBe(open[14]);
    expect(admin).toBeDefined();
  });
});
