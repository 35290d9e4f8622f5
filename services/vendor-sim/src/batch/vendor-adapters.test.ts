/**
 * The vendor layer's batch adapters against this simulator, started in-process on a free port
 * (no HTTP mocking): submit, poll, results and cancel on each wire protocol, as the batch service
 * drives them.
 */
import { batchAdapterFor, openAIAdapter, anthropicAdapter, geminiAdapter, type BatchLine, type CallContext, type ChatRequest, type VendorAdapter, type VendorBatchAdapter, type VendorBatchHandle, type VendorBatchResult, type VendorBatchState } from '@svc/vendors';
import { BatchStore } from './run';
import { startSim, type RunningSim } from '../testkit';

const PROTOCOLS = [
  { protocol: 'openai' as const, model: 'orion-mini-5', sync: openAIAdapter, path: '/v1' },
  { protocol: 'anthropic' as const, model: 'lyric-haiku-4.5', sync: anthropicAdapter, path: '' },
  { protocol: 'gemini' as const, model: 'lumen-2.5-flash', sync: geminiAdapter, path: '' },
];

const request = (model: string, text: string): ChatRequest => ({ model, system: 'Answer briefly.', messages: [{ role: 'user', content: [{ type: 'text', text }] }], maxTokens: 200 });

const linesOf = (model: string, count: number): BatchLine[] => Array.from({ length: count }, (_, i) => ({ customId: `line-${i + 1}`, request: request(model, `Question number ${i + 1}?`) }));

async function collect(results: AsyncIterable<VendorBatchResult>): Promise<Map<string, VendorBatchResult>> {
  const out = new Map<string, VendorBatchResult>();
  for await (const result of results) out.set(result.customId, result);
  return out;
}

async function until(adapter: VendorBatchAdapter, handle: VendorBatchHandle, context: CallContext, done: (state: VendorBatchState) => boolean): Promise<VendorBatchState> {
  for (let i = 0; i < 200; i++) {
    const state = await adapter.poll(handle, context);
    if (done(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the batch did not get there');
}

describe.each(PROTOCOLS)('$protocol batch adapter against vendor-sim', ({ protocol, model, sync, path }) => {
  let sim: RunningSim;
  const adapter = batchAdapterFor(protocol)!;
  const context = (headers: Record<string, string> = {}): CallContext => ({ baseUrl: `${sim.url}${path}`, apiKey: 'sim-key', headers });

  beforeAll(async () => {
    sim = await startSim({ batches: new BatchStore() });
  });
  afterAll(() => sim.close());

  it('has an adapter', () => {
    expect(adapter.protocol).toBe(protocol);
  });

  it('submit → poll → results: every line answered as the synchronous call answers it', async () => {
    const lines = linesOf(model, 5);
    const handle = await adapter.submit({ lines, metadata: { job: 'test' } }, context({ 'x-sim-batch': 'line-ms:5' }));
    expect(handle.protocol).toBe(protocol);
    const first = await adapter.poll(handle, context());
    expect(first.counts.total).toBe(5);
    const state = await until(adapter, handle, context(), (s) => s.resultsReady);
    expect(state).toMatchObject({ status: 'ended', counts: { total: 5, succeeded: 5, errored: 0, processing: 0 } });
    const results = await collect(adapter.results(handle, context()));
    expect([...results.keys()].sort()).toEqual(lines.map((line) => line.customId).sort());
    const direct = await (sync as VendorAdapter).generate(lines[2]!.request, context());
    const batched = results.get('line-3');
    expect(batched?.outcome).toBe('succeeded');
    if (batched?.outcome !== 'succeeded') return;
    expect(batched.result.content).toBe(direct.content);
    expect(batched.result.finishReason).toBe(direct.finishReason);
    expect(batched.result.usage.outputTokens).toBe(direct.usage.outputTokens);
    expect(batched.result.usage.inputTokens).toBe(direct.usage.inputTokens);
  });

  it('reports injected line failures as errored lines, the rest answered', async () => {
    const handle = await adapter.submit({ lines: linesOf(model, 6) }, context({ 'x-sim-batch': 'line-ms:0,fail-every:3,fail-status:500' }));
    const state = await until(adapter, handle, context(), (s) => s.resultsReady);
    expect(state.counts).toMatchObject({ total: 6, succeeded: 4, errored: 2 });
    const results = await collect(adapter.results(handle, context()));
    const errored = [...results.values()].filter((result) => result.outcome === 'errored');
    expect(errored.map((result) => result.customId).sort()).toEqual(['line-3', 'line-6']);
    for (const result of errored) if (result.outcome === 'errored') expect(result.error.kind).toBe('server');
  });

  it('expires what the window did not reach', async () => {
    const handle = await adapter.submit({ lines: linesOf(model, 4) }, context({ 'x-sim-batch': 'line-ms:20,window-ms:50' }));
    const state = await until(adapter, handle, context(), (s) => s.resultsReady);
    expect(state.status).toBe('expired');
    expect(state.counts.succeeded).toBe(2);
    const results = await collect(adapter.results(handle, context()));
    expect([...results.values()].filter((result) => result.outcome === 'succeeded')).toHaveLength(2);
    if (protocol !== 'gemini') expect([...results.values()].filter((result) => result.outcome === 'expired').map((result) => result.customId).sort()).toEqual(['line-3', 'line-4']);
  });

  it('cancels: cancelling, then cancelled with the lines that ran kept', async () => {
    // 50 lines of 100 ms: a cancel after 250 ms finds some lines run and most not, with seconds of
    // room for a loaded machine's late timers. The cancel settles after 1 s, so the adapter's answer
    // (a cancel and, for Gemini, a read of the batch after it) sees `cancelling` however slow it is.
    const handle = await adapter.submit({ lines: linesOf(model, 50) }, context({ 'x-sim-batch': 'line-ms:100,cancel-ms:1000' }));
    await new Promise((resolve) => setTimeout(resolve, 250));
    const cancelling = await adapter.cancel(handle, context());
    expect(cancelling.status).toBe('cancelling');
    const state = await until(adapter, handle, context(), (s) => s.resultsReady);
    expect(state.status).toBe('cancelled');
    expect(state.counts.succeeded).toBeGreaterThan(0);
    expect(state.counts.succeeded).toBeLessThan(50);
    const results = await collect(adapter.results(handle, context()));
    const answered = [...results.values()].filter((result) => result.outcome === 'succeeded');
    expect(answered).toHaveLength(state.counts.succeeded);
    if (protocol !== 'gemini') expect(results.size).toBe(50);
  });
});

describe.each(PROTOCOLS)('$protocol flex tier through the adapter against vendor-sim', ({ protocol, model, sync, path }) => {
  let sim: RunningSim;
  const context = (headers: Record<string, string> = {}): CallContext => ({ baseUrl: `${sim.url}${path}`, apiKey: 'sim-key', headers });
  const flexRequest = { ...request(model, 'A slow question?'), tier: 'flex' as const };
  // Anthropic has no flex tier: the call is served at standard and says so.
  const served = protocol === 'anthropic' ? 'standard' : 'flex';

  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.close());

  it('reports the tier that served, unary and streamed', async () => {
    expect((await sync.generate(flexRequest, context())).tier).toBe(served);
    const events = [];
    for await (const event of sync.stream(flexRequest, context())) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'usage', tier: served });
    expect((await sync.generate(request(model, 'A slow question?'), context())).tier).toBeUndefined();
  });

  if (protocol === 'anthropic') return;

  it('a capacity refusal is its own kind; the same request at standard is answered', async () => {
    const refused = await sync.generate(flexRequest, context({ 'x-sim-fault': 'capacity' })).catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: 'capacity', retryable: true });
    const standard = await sync.generate({ ...flexRequest, tier: 'standard' }, context({ 'x-sim-fault': 'capacity' }));
    expect(standard.content).toBe((await sync.generate(flexRequest, context())).content);
  });
});
