import nock from 'nock';
import { failure, fixtures, useNock } from '../adapter-testkit.test-support';
import type { VendorBatchResult } from '../batch-types';
import type { CallContext, ChatRequest } from '../types';
import { openAIBatchAdapter } from './openai-batch';
import { openAIAdapter } from './openai-chat-model';

const BASE = 'https://api.openai.com';
const context: CallContext = { baseUrl: `${BASE}/v1`, apiKey: 'sk-test-key' };
const request = (text: string): ChatRequest => ({ model: 'gpt-4.1', messages: [{ role: 'user', content: [{ type: 'text', text }] }], maxTokens: 64 });
const { fixture, json } = fixtures(__dirname);
const handle = { protocol: 'openai' as const, id: 'batch_68b0c1f2e3a48190a7d8f01c2b3e4d5f', inputFileId: 'file-9F2k3LmN4pQ5rS6tU7vW8x' };

useNock();

async function all(results: AsyncIterable<VendorBatchResult>): Promise<VendorBatchResult[]> {
  const out: VendorBatchResult[] = [];
  for await (const result of results) out.push(result);
  return out;
}

describe('openAIBatchAdapter', () => {
  it('uploads the lines as a JSONL file with purpose batch, then creates the batch on it', async () => {
    let upload = '';
    let created: unknown;
    nock(BASE, { reqheaders: { authorization: 'Bearer sk-test-key' } })
      .post('/v1/files', (body: string) => {
        upload = body;
        return true;
      })
      .matchHeader('content-type', /^multipart\/form-data; boundary=/)
      .reply(200, { id: 'file-9F2k3LmN4pQ5rS6tU7vW8x', object: 'file', bytes: 412, created_at: 1756540000, filename: 'batch.jsonl', purpose: 'batch' })
      .post('/v1/batches', (body) => {
        created = body;
        return true;
      })
      .reply(200, { ...json('batch-completed.json'), status: 'validating', output_file_id: null, error_file_id: null });
    const lines = [
      { customId: 'line-1', request: request('Capital of France?') },
      { customId: 'line-2', request: request('Capital of Germany?') },
    ];
    expect(await openAIBatchAdapter.submit({ lines, metadata: { job: 'nightly' } }, context)).toEqual(handle);
    expect(upload).toContain('name="purpose"\r\n\r\nbatch\r\n');
    const jsonl = upload.slice(upload.indexOf('application/jsonl\r\n\r\n') + 21, upload.lastIndexOf('\r\n--'));
    expect(jsonl.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { custom_id: 'line-1', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Capital of France?' }], max_completion_tokens: 64 } },
      { custom_id: 'line-2', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Capital of Germany?' }], max_completion_tokens: 64 } },
    ]);
    expect(created).toEqual({ input_file_id: 'file-9F2k3LmN4pQ5rS6tU7vW8x', endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { job: 'nightly' } });
  });

  it('refuses a custom id used twice: the upload is abandoned and no batch is created', async () => {
    nock(BASE).post('/v1/files').optionally().reply(200, { id: 'file-x' });
    const error = await failure(openAIBatchAdapter.submit({ lines: [{ customId: 'a', request: request('x') }, { customId: 'a', request: request('y') }] }, context));
    expect(error.kind).toBe('invalid_request');
  });

  it('maps the batch status and counts', async () => {
    nock(BASE).get(`/v1/batches/${handle.id}`).reply(200, { ...json('batch-completed.json'), status: 'finalizing', request_counts: { total: 3, completed: 1, failed: 0 } });
    expect(await openAIBatchAdapter.poll(handle, context)).toEqual({
      handle,
      status: 'in_progress',
      counts: { total: 3, succeeded: 1, errored: 0, processing: 2, cancelled: 0, expired: 0 },
      resultsReady: false,
    });
    nock(BASE).get(`/v1/batches/${handle.id}`).reply(200, { ...json('batch-completed.json'), status: 'failed', errors: { object: 'list', data: [{ code: 'duplicate_custom_id', message: 'The custom_id for this request is a duplicate.', line: 2 }] } });
    expect(await openAIBatchAdapter.poll(handle, context)).toMatchObject({ status: 'failed', failure: 'The custom_id for this request is a duplicate.' });
  });

  it('reads the output and error files line by line', async () => {
    nock(BASE)
      .get(`/v1/batches/${handle.id}`)
      .reply(200, json('batch-completed.json'))
      .get('/v1/files/file-Out1A2b3C4d5E6f7G8h9I0j/content')
      .reply(200, fixture('batch-output.jsonl'))
      .get('/v1/files/file-Err1A2b3C4d5E6f7G8h9I0j/content')
      .reply(200, fixture('batch-errors.jsonl'));
    const results = await all(openAIBatchAdapter.results(handle, context));
    expect(results.map((result) => [result.customId, result.outcome])).toEqual([
      ['line-1', 'succeeded'],
      ['line-2', 'succeeded'],
      ['line-3', 'errored'],
      ['line-4', 'expired'],
    ]);
    expect(results[0]).toMatchObject({ result: { content: 'The capital of France is Paris.', finishReason: 'stop', usage: { inputTokens: 19, outputTokens: 8 } } });
    expect((results[0] as { result: { tier?: string } }).result.tier).toBeUndefined();
    expect(results[2]).toMatchObject({ error: { kind: 'invalid_request', options: { status: 400, reason: "Invalid 'max_completion_tokens': integer below minimum value." } } });
  });

  it('will not read results of a batch still running', async () => {
    nock(BASE).get(`/v1/batches/${handle.id}`).reply(200, { ...json('batch-completed.json'), status: 'in_progress' });
    expect((await failure(all(openAIBatchAdapter.results(handle, context)))).kind).toBe('invalid_request');
  });

  it('cancels', async () => {
    nock(BASE).post(`/v1/batches/${handle.id}/cancel`).reply(200, { ...json('batch-completed.json'), status: 'cancelling', output_file_id: null, error_file_id: null, request_counts: { total: 3, completed: 1, failed: 0 } });
    expect(await openAIBatchAdapter.cancel(handle, context)).toMatchObject({ status: 'cancelling', resultsReady: false });
  });
});

describe('openAIAdapter flex', () => {
  it('asks for service_tier flex and reports the tier that served', async () => {
    let sent: Record<string, unknown> | undefined;
    nock(BASE)
      .post('/v1/chat/completions', (body) => ((sent = body), true))
      .reply(200, { ...json('chat-text.json'), service_tier: 'flex' });
    const result = await openAIAdapter.generate({ ...request('x'), tier: 'flex' }, context);
    expect(sent?.service_tier).toBe('flex');
    expect(result.tier).toBe('flex');
  });

  it('a 429 resource_unavailable on a flex call is capacity; a plain rate limit stays rate_limited', async () => {
    const unavailable = { error: { message: 'Resource unavailable: not enough flex capacity.', type: 'invalid_request_error', param: null, code: 'resource_unavailable' } };
    nock(BASE).post('/v1/chat/completions').reply(429, unavailable);
    expect(await failure(openAIAdapter.generate({ ...request('x'), tier: 'flex' }, context))).toMatchObject({ kind: 'capacity', retryable: true });
    nock(BASE).post('/v1/chat/completions').reply(429, json('error-429.json'));
    expect((await failure(openAIAdapter.generate({ ...request('x'), tier: 'flex' }, context))).kind).toBe('rate_limited');
  });
});
