/**
 * Simulated batches, protocol-neutral: a batch is its lines and a clock. Nothing runs in the
 * background: which lines have run is computed from the time (line i ends at created + (i+1) x
 * lineMs), and a line's answer is generated when its result is read, with the same engine as the
 * synchronous endpoint. State lives in this process's memory only (a restart forgets every batch).
 */
import { generateAnswer } from '../answer';
import type { ChatProtocol, Turn, Vendor } from '../engine';
import type { PromptCache } from '../cache';
import type { VendorError } from '../http';
import { InvalidRequest, type SimRequest } from '../request';
import { accountPrompt } from '../usage';

export class BatchSyntaxError extends Error {
  override name = 'BatchSyntaxError';
}

/** Per-batch behaviour: defaults from the configuration, overridden by the x-sim-batch header. */
export interface BatchOptions {
  /** Time each line takes, one after another (fractions allowed); 0 = all at once. */
  lineMs: number;
  /** The completion window: lines not run by then expire. */
  windowMs: number;
  /** How long a cancel takes to settle (`cancelling` until then). */
  cancelMs: number;
  /** Every n-th line (n, 2n, ...) fails with `failStatus`; 0 = none. */
  failEvery: number;
  failStatus: number;
  /** The whole batch is refused at validation. */
  fail: boolean;
}

export const DEFAULT_BATCH_OPTIONS: BatchOptions = Object.freeze({ lineMs: 0.1, windowMs: 24 * 3600_000, cancelMs: 50, failEvery: 0, failStatus: 500, fail: false });

function number(text: string | undefined, item: string, integer: boolean): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new BatchSyntaxError(`x-sim-batch "${item}": expected a non-negative ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

/** The batch options of a create request's x-sim-batch header, or the syntax error's message (a 400 in every protocol). */
export function batchOptionsOf(spec: string | undefined, defaults: BatchOptions): BatchOptions | string {
  try {
    return parseBatchOptions(spec, defaults);
  } catch (error) {
    if (error instanceof BatchSyntaxError) return error.message;
    throw error;
  }
}

/** `line-ms:<ms>,window-ms:<ms>,cancel-ms:<ms>,fail-every:<n>,fail-status:<code>,fail` (any subset). */
export function parseBatchOptions(spec: string | undefined, defaults: BatchOptions = DEFAULT_BATCH_OPTIONS): BatchOptions {
  const options = { ...defaults };
  for (const item of (spec ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
    const [name, arg, ...rest] = item.split(':');
    if (rest.length > 0) throw new BatchSyntaxError(`x-sim-batch "${item}": too many ':' parts`);
    switch (name?.toLowerCase()) {
      case 'line-ms':
        options.lineMs = number(arg, item, false);
        break;
      case 'window-ms':
        options.windowMs = number(arg, item, false);
        break;
      case 'cancel-ms':
        options.cancelMs = number(arg, item, false);
        break;
      case 'fail-every':
        options.failEvery = number(arg, item, true);
        break;
      case 'fail-status': {
        const status = number(arg, item, true);
        if (status < 400 || status > 599) throw new BatchSyntaxError(`x-sim-batch "${item}": status must be 400-599`);
        options.failStatus = status;
        break;
      }
      case 'fail':
        if (arg !== undefined) throw new BatchSyntaxError(`x-sim-batch "${item}": takes no argument`);
        options.fail = true;
        break;
      default:
        throw new BatchSyntaxError(`x-sim-batch: unknown item "${item}"`);
    }
  }
  return options;
}

/** What a batch is, by the clock: the states every protocol maps to its own names. */
export type RunPhase = 'running' | 'cancelling' | 'cancelled' | 'expired' | 'completed' | 'failed';

export type LineOutcome = 'succeeded' | 'errored' | 'cancelled' | 'expired' | 'pending';

export interface RunLine {
  customId: string;
  /** The line's request body in the vendor's own shape. */
  body: unknown;
  /** Parsed at submission; a line the vendor would refuse keeps its refusal. */
  parsed?: SimRequest;
  /** The protocol's rendering options for this line (Anthropic thinking, Gemini thoughts). */
  options?: unknown;
  invalid?: InvalidRequest;
}

export interface RunCounts {
  total: number;
  succeeded: number;
  errored: number;
  processing: number;
  cancelled: number;
  expired: number;
}

/** A line's answer or failure, ready to render. */
export type LineResult<O> = { ok: true; turn: Turn<O> } | { ok: false; error: VendorError };

export class BatchRun {
  cancelAt?: number;

  constructor(
    readonly id: string,
    readonly lines: readonly RunLine[],
    readonly options: BatchOptions,
    readonly created: number,
    readonly metadata: Record<string, unknown> = {},
  ) {}

  get finishAt(): number {
    return this.created + this.lines.length * this.options.lineMs;
  }

  get expireAt(): number {
    return this.created + this.options.windowMs;
  }

  /** When lines stopped running (or will): the end, the window, or the cancel. */
  get stopAt(): number {
    return Math.min(this.finishAt, this.expireAt, this.cancelAt ?? Infinity);
  }

  /** How many lines have run by `now` (always a prefix). */
  ran(now: number): number {
    if (this.options.fail) return 0;
    const until = Math.min(now, this.stopAt);
    if (until >= this.finishAt) return this.lines.length;
    if (this.options.lineMs <= 0) return this.lines.length;
    return Math.max(0, Math.min(this.lines.length, Math.floor((until - this.created) / this.options.lineMs + 1e-9)));
  }

  phase(now: number): RunPhase {
    if (this.options.fail) return 'failed';
    const { finishAt, expireAt, cancelAt } = this;
    if (cancelAt !== undefined && cancelAt < finishAt && cancelAt < expireAt) return now < cancelAt + this.options.cancelMs ? 'cancelling' : 'cancelled';
    if (finishAt <= expireAt) return now >= finishAt ? 'completed' : 'running';
    return now >= expireAt ? 'expired' : 'running';
  }

  /** When the batch reached its final phase (undefined while it has not). */
  endedAt(now: number): number | undefined {
    const phase = this.phase(now);
    if (phase === 'running' || phase === 'cancelling') return undefined;
    if (phase === 'failed') return this.created;
    if (phase === 'cancelled') return (this.cancelAt ?? this.created) + this.options.cancelMs;
    return this.stopAt;
  }

  /** A cancel: only while running (a batch that ended cannot be cancelled). */
  cancel(now: number): boolean {
    if (this.phase(now) !== 'running') return false;
    this.cancelAt = now;
    return true;
  }

  failsByInjection(index: number): boolean {
    return this.options.failEvery > 0 && (index + 1) % this.options.failEvery === 0;
  }

  outcome(index: number, now: number): LineOutcome {
    const line = this.lines[index] as RunLine;
    if (index < this.ran(now)) return line.invalid || this.failsByInjection(index) ? 'errored' : 'succeeded';
    const phase = this.phase(now);
    if (phase === 'cancelled' || phase === 'cancelling') return phase === 'cancelled' ? 'cancelled' : 'pending';
    if (phase === 'expired') return 'expired';
    return 'pending';
  }

  counts(now: number): RunCounts {
    const counts: RunCounts = { total: this.lines.length, succeeded: 0, errored: 0, processing: 0, cancelled: 0, expired: 0 };
    for (let i = 0; i < this.lines.length; i++) {
      const outcome = this.outcome(i, now);
      counts[outcome === 'pending' ? 'processing' : outcome]++;
    }
    return counts;
  }

  /** The line's answer, as the synchronous endpoint would give it, or its failure. */
  answer<O>(index: number, protocol: ChatProtocol<O>, fallbackOptions: O, cache: PromptCache): LineResult<O> {
    const line = this.lines[index] as RunLine;
    const vendor: Vendor = protocol.vendor;
    if (line.invalid) return { ok: false, error: vendor.error({ kind: 'invalid_request', message: line.invalid.message, param: line.invalid.param, code: line.invalid.code }) };
    if (this.failsByInjection(index)) return { ok: false, error: vendor.error({ kind: 'status', status: this.options.failStatus }) };
    const request = line.parsed as SimRequest;
    const answer = generateAnswer(request);
    const usage = accountPrompt(cache, `${vendor.name}:${request.model}`, request.blocks, protocol.cacheMode());
    const options = (line.options ?? fallbackOptions) as O;
    return { ok: true, turn: { request, answer, usage, options, id: protocol.newId(), created: Math.floor(Date.now() / 1000) } };
  }
}

/** Parses each line with the protocol's own request parser, keeping refusals per line. */
export function prepareLine(customId: string, body: unknown, parse: (body: unknown) => { request: SimRequest; options?: unknown }): RunLine {
  try {
    const { request, options } = parse(body);
    return { customId, body, parsed: request, options };
  } catch (error) {
    if (error instanceof InvalidRequest) return { customId, body, invalid: error };
    throw error;
  }
}

/** Every batch (and OpenAI file) of one simulator process, by id. */
export class BatchStore {
  readonly runs = new Map<string, BatchRun>();
  readonly files = new Map<string, SimFile>();

  constructor(
    readonly now: () => number = Date.now,
    readonly defaults: BatchOptions = DEFAULT_BATCH_OPTIONS,
  ) {}
}

/** An OpenAI file: an upload, or a batch's output or error file (rendered when read). */
export type SimFile =
  | { id: string; kind: 'upload'; bytes: Buffer; filename: string; purpose: string; created: number }
  | { id: string; kind: 'output' | 'error'; batchId: string; created: number };

/** Writes one chunk, waiting for the socket when its buffer is full. */
export function writeLine(res: import('express').Response, text: string): Promise<void> | void {
  if (res.write(text)) return;
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
