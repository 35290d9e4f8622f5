import { sleep } from './chaos-fleet';

/**
 * Client-side traffic for the chaos scenarios: calls that record what the client saw (status,
 * the answered call's svc.call_id, the refusal's code, how long it was open), an open-loop load
 * at a fixed rate, and the numbers the scenarios report.
 */

export const REQUEST_ID = /^req_[0-9a-f]{32}$/;
const ERROR_TYPES = new Set(['invalid_request_error', 'permission_error', 'billing_error', 'rate_limit_error', 'server_error']);

export interface Outcome {
  label: string;
  organizationId?: string;
  /** Epoch ms when the request was sent and when its answer (or failure) was complete. */
  start: number;
  end: number;
  /** HTTP status; 0 when no HTTP answer arrived (connection refused or reset, client timeout). */
  status: number;
  /** Answered: a 200 with a complete body (a stream that ended in [DONE] with no error event). */
  answered: boolean;
  /** svc.call_id of an answered call. */
  callId?: string;
  /** svc.model_served of an answered unary call. */
  model?: string;
  /** error.code of a refusal (or of a stream's error event). */
  code?: string;
  /** A refusal in the spec's envelope {error:{message,type,param,code}} with an x-request-id. */
  envelope?: boolean;
  /** Why no HTTP answer arrived (or what was wrong with it). */
  error?: string;
}

export interface CallSpec {
  label: string;
  path?: string;
  body: unknown;
  headers?: Record<string, string>;
  /** The client gives up after this long (status 0, error `client timeout`). */
  timeoutMs?: number;
  organizationId?: string;
}

/** Is this body the spec's error envelope? */
export function isEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { message, type, param, code } = error as Record<string, unknown>;
  return typeof message === 'string' && message.length > 0 && typeof type === 'string' && ERROR_TYPES.has(type) && (param === null || typeof param === 'string') && typeof code === 'string' && code.length > 0 && Object.keys(body).length === 1;
}

/** The SSE `data:` payloads of a stream body. */
function sseData(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6).trim());
}

/** POSTs one call (unary or `stream: true`) and records what the client saw. Never throws. */
export async function call(baseUrl: string, apiKey: string, spec: CallSpec): Promise<Outcome> {
  const start = Date.now();
  const controller = new AbortController();
  // A timer of our own (not AbortSignal.timeout): the client must give up exactly when told.
  const timer = setTimeout(() => controller.abort(new Error('client timeout')), spec.timeoutMs ?? 60_000);
  const outcome: Outcome = { label: spec.label, organizationId: spec.organizationId, start, end: start, status: 0, answered: false };
  try {
    const response = await fetch(`${baseUrl}${spec.path ?? '/chat/completions'}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...spec.headers },
      body: typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body),
      signal: controller.signal,
    });
    outcome.status = response.status;
    const text = await response.text();
    const requestId = response.headers.get('x-request-id') ?? '';
    const streamed = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if (response.status === 200 && streamed) {
      const events = sseData(text);
      const done = events.at(-1) === '[DONE]';
      let callId: string | undefined;
      let code: string | undefined;
      for (const data of events) {
        if (data === '[DONE]') continue;
        const chunk = JSON.parse(data) as { svc?: { call_id?: string }; error?: { code?: string } };
        if (chunk.error) code = chunk.error.code ?? 'stream_error';
        if (chunk.svc?.call_id) callId = chunk.svc.call_id;
      }
      outcome.answered = done && !code && Boolean(callId);
      if (outcome.answered) outcome.callId = callId;
      else {
        outcome.code = code ?? 'stream_incomplete';
        outcome.envelope = Boolean(code) && REQUEST_ID.test(requestId);
      }
    } else if (response.status === 200) {
      const body = JSON.parse(text) as { svc?: { call_id?: string; model_served?: string }; error?: { code?: string } };
      // A long call's failure after its 200 was committed is an error object in the body.
      if (body.error) {
        outcome.code = body.error.code;
      } else {
        outcome.answered = Boolean(body.svc?.call_id);
        outcome.callId = body.svc?.call_id;
        outcome.model = body.svc?.model_served;
      }
    } else {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      outcome.code = (body as { error?: { code?: string } } | undefined)?.error?.code ?? `http_${response.status}`;
      outcome.envelope = isEnvelope(body) && REQUEST_ID.test(requestId);
    }
  } catch (error) {
    // No HTTP answer, or its body broke off (a killed edge): not answered.
    outcome.answered = false;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    outcome.error = controller.signal.aborted ? 'client timeout' : (cause?.code ?? cause?.message ?? (error as Error).message);
  } finally {
    clearTimeout(timer);
    outcome.end = Date.now();
  }
  return outcome;
}

/** Fires `make(i)` at a fixed rate whatever the answers take (open loop), until stopped. */
export class Load {
  readonly outcomes: Outcome[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private index = 0;

  constructor(private readonly make: (index: number) => Promise<Outcome>) {}

  start(ratePerSecond: number): this {
    this.timer = setInterval(() => this.fire(), Math.max(1, Math.round(1000 / ratePerSecond)));
    return this;
  }

  fire(): void {
    const work = this.make(this.index++).then((outcome) => void this.outcomes.push(outcome));
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work));
  }

  /** Requests still open. */
  open(): number {
    return this.inflight.size;
  }

  /** Stops firing and waits for every open request to end. */
  async stop(): Promise<Outcome[]> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    return this.outcomes;
  }
}

export interface TrafficSummary {
  requests: number;
  answered: number;
  /** Count by status (and `0:<error>` for no HTTP answer). */
  statuses: Record<string, number>;
  /** Refusal codes seen. */
  codes: Record<string, number>;
  /** Refusals (4xx/5xx) not in the envelope with an x-request-id. */
  bare_refusals: number;
  max_request_ms: number;
  p99_request_ms: number;
}

export function summarize(outcomes: Outcome[]): TrafficSummary {
  const statuses: Record<string, number> = {};
  const codes: Record<string, number> = {};
  let bare = 0;
  for (const outcome of outcomes) {
    const key = outcome.status === 0 ? `0:${outcome.error ?? 'no answer'}` : String(outcome.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (outcome.code) codes[outcome.code] = (codes[outcome.code] ?? 0) + 1;
    if (outcome.status >= 400 && !outcome.envelope) bare += 1;
  }
  const durations = outcomes.map((outcome) => outcome.end - outcome.start).sort((a, b) => a - b);
  return {
    requests: outcomes.length,
    answered: outcomes.filter((outcome) => outcome.answered).length,
    statuses,
    codes,
    bare_refusals: bare,
    max_request_ms: durations.at(-1) ?? 0,
    p99_request_ms: durations[Math.min(durations.length - 1, Math.floor(durations.length * 0.99))] ?? 0,
  };
}

/**
 * Seconds from the dependency's return until the fleet answers again: the end of the last
 * failed request among those sent after the return (0 when none failed).
 */
export function recoverySeconds(outcomes: Outcome[], restoredAt: number): number {
  let last = restoredAt;
  for (const outcome of outcomes) if (outcome.start >= restoredAt && !outcome.answered) last = Math.max(last, outcome.end);
  return (last - restoredAt) / 1000;
}

/** Waits until `probe` holds, polling; returns the ms it took, or throws after `timeoutMs`. */
export async function waitFor(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 50): Promise<number> {
  const startedAt = Date.now();
  while (!(await probe())) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
  return Date.now() - startedAt;
}

const SHAPES = [
  { label: 'chat', body: { model: 'vendor-1/orion-mini-5', max_tokens: 24 } },
  { label: 'chat', body: { model: 'vendor-1/orion-mini-5', max_tokens: 24 } },
  { label: 'chat-anthropic', body: { model: 'vendor-2/lyric-haiku-4.5', max_tokens: 24 } },
  { label: 'chat-gemini', body: { model: 'vendor-3/lumen-2.5-flash', max_tokens: 24 } },
  { label: 'auto', body: { model: 'auto', max_tokens: 24 } },
  { label: 'stream', body: { model: 'vendor-1/orion-mini-5', max_tokens: 24, stream: true } },
  { label: 'chat', body: { model: 'vendor-1/orion-4.1-mini', max_tokens: 24 } },
  { label: 'embeddings', path: '/embeddings', body: { model: 'vendor-1/orion-embed-3-small', input: ['chaos'] } },
] as const;

/**
 * The i-th call of a mixed, billed workload: named chat on the three wire protocols, auto (the
 * router's path), a stream and embeddings. Every answered one is a ledger row.
 */
export function mixedCall(baseUrl: string, organization: { apiKey: string; organizationId: string }, index: number, options: { timeoutMs?: number; headers?: Record<string, string> } = {}): Promise<Outcome> {
  const shape = SHAPES[index % SHAPES.length]!;
  const body = shape.label === 'embeddings' ? { ...shape.body, input: [`chaos ${index}`] } : { ...shape.body, messages: [{ role: 'user', content: `chaos call ${index}: say something short` }] };
  return call(baseUrl, organization.apiKey, { label: shape.label, path: 'path' in shape ? shape.path : undefined, body, organizationId: organization.organizationId, timeoutMs: options.timeoutMs ?? 30_000, headers: options.headers });
}
