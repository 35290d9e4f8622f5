import { catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { BatchObject } from '@svc/backends';
import type { BatchLineRunJob, BatchStartJob } from '@svc/messages';
import { LineUsageCapture, RunningBatches, batchLinesHandler, batchStartHandler } from './batch';

const logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined } as unknown as Logger;
const MODEL = catalog.data.models.find((model) => model.batch)!.id;
const key = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor' };
const line = (index: number, body: Record<string, unknown> = { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }) => JSON.stringify({ custom_id: `c-${index}`, method: 'POST', url: '/v1/chat/completions', body });
const job: BatchStartJob = { batch_id: 'batch_1', organization_id: 'org_1', key, key_hash: 'hash', allow_standard_price: false, simulator_headers: {} };

function setup(options: { lines?: string[]; fileGone?: boolean; revoked?: boolean; balance?: number; status?: string } = {}) {
  const calls: Array<{ method: string; payload: any }> = [];
  const published: BatchLineRunJob[] = [];
  let status = options.status ?? 'validating';
  const deps = {
    batches: {
      getBatch: async () => ({ id: 'batch_1', object: 'batch', status, input_file_id: 'file_1', request_counts: { total: 0, completed: 0, failed: 0 } }) as BatchObject,
      fileContent: async () => {
        if (options.fileGone) throw new ServiceError('not_found', 'gone');
        const text = (options.lines ?? [line(0), line(1), line(2)]).join('\n');
        return { filename: 'f', bytes: text.length, body: (async function* () { yield Buffer.from(text); })(), cancel: () => undefined };
      },
      batchWork: async (method: string, payload: unknown) => {
        calls.push({ method, payload });
        if (method === 'StartBatch') status = 'in_progress';
        return { id: 'batch_1', status } as never;
      },
    },
    catalog,
    billing: {
      admit: async () => ({ headers: { 'x-svc-balance-micros': String(options.balance ?? 1_000_000_000) } }),
      release: async () => undefined,
    },
    authenticateKey: async () => ({ key: { revoked: options.revoked ?? false } }),
    publishChunk: async (chunk: BatchLineRunJob) => void published.push(chunk),
    logger,
    chunkLines: 2,
  };
  return { deps, calls, published };
}

describe('batch.start (validation, then the chunks)', () => {
  it('starts a valid batch and publishes its lines in chunks, in order', async () => {
    const { deps, calls, published } = setup();
    await batchStartHandler(deps as never)(job);
    expect(calls.map((call) => call.method)).toEqual(['StartBatch']);
    expect(published.map((chunk) => chunk.lines.map((entry) => entry.index))).toEqual([[0, 1], [2]]);
    expect(published[0]!.lines[0]).toMatchObject({ custom_id: 'c-0', body: { model: MODEL } });
  });

  it.each([
    ['api_key_revoked', { revoked: true }, null],
    ['input_file_missing', { fileGone: true }, null],
    ['empty_file', { lines: [] }, null],
    ['insufficient_credits', { balance: 0 }, null],
    ['invalid_url', { lines: [line(0), line(1).replace('/v1/chat/completions', '/v1/embeddings')] }, 2],
  ] as const)('%s fails the batch before any line runs', async (code, options, lineNumber) => {
    const { deps, calls, published } = setup(options as never);
    await batchStartHandler(deps as never)(job);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('FailBatch');
    expect(calls[0]!.payload.errors[0]).toMatchObject({ code, line: lineNumber });
    expect(published).toEqual([]);
  });

  it('a key that expired before the batch started fails it key_expired', async () => {
    const { deps, calls } = setup();
    await batchStartHandler(deps as never)({ ...job, key: { ...key, expires_at_ms: 1 } });
    expect(calls[0]!.payload.errors[0]).toMatchObject({ code: 'key_expired' });
  });

  it('a batch already in progress (the job redelivered) has its chunks published again without a second start', async () => {
    const { deps, calls, published } = setup({ status: 'in_progress' });
    await batchStartHandler(deps as never)(job);
    expect(calls).toEqual([]);
    expect(published).toHaveLength(2);
  });
});

describe('batch.line.run', () => {
  const chunk: BatchLineRunJob = { batch_id: 'batch_1', organization_id: 'org_1', key, allow_standard_price: false, simulator_headers: {}, lines: [0, 1, 2].map((index) => ({ index, custom_id: `c-${index}`, body: { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } })) };

  function lineDeps(status: string, pending: number[], run: (callId: string) => Promise<unknown>) {
    const commits: any[] = [];
    const capture = new LineUsageCapture(() => ({ record: async () => undefined }));
    const deps = {
      calls: {
        run: async (_input: unknown, _caller: unknown, policy: { ids: { callId: string }; tier: string; cacheTtl: string }) => {
          expect(policy).toMatchObject({ tier: 'batch', cacheTtl: 'none' });
          await capture.record({ call_id: policy.ids.callId } as never);
          return run(policy.ids.callId);
        },
      },
      capture,
      batches: {
        batchWork: async (method: string, payload: any) => {
          if (method === 'PendingLines') return { status, pending: payload.indexes.length === 0 ? [] : pending };
          commits.push(payload);
          return { committed: payload.lines.map((entry: { index: number }) => entry.index) };
        },
      },
      catalog,
      logger,
      concurrency: 2,
      settleWaitMs: 5,
      settlePatienceMs: 50,
    };
    return { deps, commits };
  }

  it('runs only the pending lines and commits each with its usage record; a refused line goes out with the error envelope', async () => {
    const { deps, commits } = lineDeps('in_progress', [1, 2], async () => {
      return { head: { id: 'chatcmpl-x', created: 1, model: MODEL }, result: { content: 'ok', finishReason: 'stop', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 } }, svc: { cost_micros: 3, cost: { vendor_micros: 2, direct_micros: 6, saved_micros: 3 } }, headers: {}, served: {} };
    });
    await batchLinesHandler(deps as never)(chunk);
    const lines = commits.flatMap((commit) => commit.lines);
    expect(lines.map((entry: { index: number }) => entry.index).sort()).toEqual([1, 2]);
    for (const entry of lines) {
      expect(entry).toMatchObject({ status: 'completed', usage: { call_id: expect.stringMatching(/^call_/) }, cost: { vendor_micros: 2, billed_micros: 3, direct_micros: 6, saved_micros: 3 } });
      expect(entry.line).toMatchObject({ custom_id: expect.any(String), response: { status_code: 200, body: { object: 'chat.completion' } }, error: null });
    }
  });

  it('lines sharing a long prefix on the explicit-marker vendor: the first runs marked and finishes before the others, marked too, start; other lines stay unmarked (Caching rules 6)', async () => {
    const shared = 'You answer questions about the attached handbook. '.repeat(80); // well over 512 tokens
    const explicit = 'vendor-2/lyric-mini-3';
    const body = (system: string | undefined, question: string, model = explicit) => ({ model, max_tokens: 10, messages: [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: question }] });
    const sharedChunk: BatchLineRunJob = {
      ...chunk,
      lines: [
        { index: 0, custom_id: 'a', body: body(shared, 'Question one?') },
        { index: 1, custom_id: 'b', body: body(shared, 'Question two?') },
        { index: 2, custom_id: 'c', body: body(shared, 'Question three?') },
        { index: 3, custom_id: 'd', body: body('A short system prompt.', 'Unrelated?') },
        { index: 4, custom_id: 'e', body: body(shared, 'Same prefix, another vendor?', MODEL) },
      ],
    };
    const events: string[] = [];
    const ttls = new Map<string, string>();
    const capture = new LineUsageCapture(() => ({ record: async () => undefined }));
    const answer = { head: { id: 'chatcmpl-x', created: 1, model: explicit }, result: { content: 'ok', finishReason: 'stop', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 } }, svc: { cost_micros: 3, cost: { vendor_micros: 2, direct_micros: 6, saved_micros: 3 } }, headers: {}, served: {} };
    const deps = {
      calls: {
        run: async (input: { messages: Array<{ content: Array<{ text: string }> }> }, _caller: unknown, policy: { ids: { callId: string }; cacheTtl: string }) => {
          const question = input.messages[input.messages.length - 1]!.content[0]!.text;
          ttls.set(question, policy.cacheTtl);
          events.push(`start ${question}`);
          await new Promise((resolve) => setTimeout(resolve, question === 'Question one?' ? 30 : 1));
          events.push(`end ${question}`);
          await capture.record({ call_id: policy.ids.callId } as never);
          return answer;
        },
      },
      capture,
      batches: { batchWork: async (method: string, payload: any) => (method === 'PendingLines' ? { status: 'in_progress', pending: payload.indexes } : { committed: payload.lines.map((entry: { index: number }) => entry.index) }) },
      catalog,
      logger,
      concurrency: 4,
    };
    await batchLinesHandler(deps as never)(sharedChunk);
    expect(Object.fromEntries(ttls)).toEqual({ 'Question one?': '5m', 'Question two?': '5m', 'Question three?': '5m', 'Unrelated?': 'none', 'Same prefix, another vendor?': 'none' });
    const writerEnd = events.indexOf('end Question one?');
    expect(events.indexOf('start Question two?')).toBeGreaterThan(writerEnd);
    expect(events.indexOf('start Question three?')).toBeGreaterThan(writerEnd);
    expect(events.indexOf('start Unrelated?')).toBeLessThan(writerEnd);
  });

  it('turns a vendor refusal into an error-file line; a cancelling batch commits its pending lines cancelled without running them', async () => {
    const refused = lineDeps('in_progress', [0], async () => {
      throw new ServiceError('upstream_invalid_request', 'no');
    });
    await batchLinesHandler(refused.deps as never)(chunk);
    expect(refused.commits[0].lines[0]).toMatchObject({ index: 0, status: 'failed', line: { response: { status_code: 400, body: { error: { code: 'upstream_invalid_request' } } }, error: null } });
    expect(refused.commits[0].lines[0].usage).toBeUndefined();

    const cancelling = lineDeps('cancelling', [0, 1, 2], async () => {
      throw new Error('must not run');
    });
    await batchLinesHandler(cancelling.deps as never)(chunk);
    expect(cancelling.commits[0].lines).toEqual([0, 1, 2].map((index) => ({ index, status: 'cancelled' })));
  });
  const answered = { head: { id: 'chatcmpl-x', created: 1, model: MODEL }, result: { content: 'ok', finishReason: 'stop', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 } }, svc: { cost_micros: 3, cost: { vendor_micros: 2, direct_micros: 6, saved_micros: 3 } }, headers: {}, served: {} };

  it('a line refused for what the chunk\'s other lines hold (quota_exceeded, insufficient_credits) runs again once one settles; refused with none in flight, it fails', async () => {
    // A spend limit with room for one reservation at a time: a second line in flight is refused.
    let holding = 0;
    let refusals = 0;
    const { deps, commits } = lineDeps('in_progress', [0, 1, 2], async () => {
      if (holding >= 1) {
        refusals += 1;
        throw new ServiceError('quota_exceeded', 'This key’s spend limit is reached.');
      }
      holding += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      holding -= 1;
      return answered;
    });
    await batchLinesHandler(deps as never)(chunk);
    const lines = commits.flatMap((commit) => commit.lines);
    expect(lines.map((entry: { status: string }) => entry.status)).toEqual(['completed', 'completed', 'completed']);
    expect(refusals).toBeGreaterThan(0);

    // The limit really reached: refused with nothing else in flight, the line fails at once.
    const spent = lineDeps('in_progress', [0, 1, 2], async () => {
      throw new ServiceError('quota_exceeded', 'This key’s spend limit is reached.');
    });
    await batchLinesHandler(spent.deps as never)(chunk);
    const failed = spent.commits.flatMap((commit) => commit.lines);
    expect(failed).toHaveLength(3);
    for (const entry of failed) expect(entry).toMatchObject({ status: 'failed', line: { response: { status_code: 429, body: { error: { code: 'quota_exceeded' } } } } });
  });

  it('an announced cancel stops a running chunk at once: calls in flight cut, lines not started committed cancelled', async () => {
    const running = new RunningBatches();
    let started = 0;
    const { deps, commits } = lineDeps('in_progress', [0, 1, 2], async () => {
      started += 1;
      // Hangs until the cancel cuts it (the pipeline returns undefined for a cut call).
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
      return answered;
    });
    const calls = deps.calls.run;
    deps.calls.run = (async (input: unknown, caller: unknown, policy: never, signal: AbortSignal) =>
      Promise.race([calls(input, caller, policy), new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }))])) as never;
    const done = batchLinesHandler({ ...deps, running, statusCheckMs: 60_000 } as never)(chunk);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBe(2); // concurrency 2
    const at = Date.now();
    expect(running.cancel('batch_1')).toBe(true);
    await done;
    expect(Date.now() - at).toBeLessThan(1_000);
    const lines = commits.flatMap((commit) => commit.lines);
    expect(lines.map((entry: { index: number; status: string }) => [entry.index, entry.status]).sort()).toEqual([[0, 'cancelled'], [1, 'cancelled'], [2, 'cancelled']]);
    expect(started).toBe(2);
    // Once the chunk ended, nothing of it is left registered.
    expect(running.cancel('batch_1')).toBe(false);
  });
});
