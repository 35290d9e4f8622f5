/**
 * The vendor batch interface, version 1: submit many chat requests at once to a vendor's own
 * batch API (OpenAI Batch with files, Anthropic Message Batches, Gemini batch mode), poll it,
 * read its results as a stream, cancel it. One adapter per wire protocol (registry.ts).
 *
 * The handle is plain JSON so the caller can store it and poll from another process later.
 */
import type { VendorError } from './errors';
import type { CallContext, ChatRequest, ChatResult, VendorAdapter } from './types';

export type BatchProtocol = VendorAdapter['protocol'];

/** One request of a batch. `customId` is unique within the batch; Anthropic takes 1-64 of [A-Za-z0-9_-] only. */
export interface BatchLine {
  customId: string;
  request: ChatRequest;
}

export interface BatchSubmission {
  /**
   * The lines, read once, in order. An async iterable lets a large batch be sent without
   * holding it whole: the OpenAI and Anthropic adapters stream the upload. Gemini's inlined
   * mode (the one this adapter uses) takes up to 20 MB of requests in one body.
   */
  lines: Iterable<BatchLine> | AsyncIterable<BatchLine>;
  /** Labels kept with the vendor's batch (OpenAI metadata, Gemini display name). */
  metadata?: Record<string, string>;
}

/** What the caller keeps to find the batch again; plain JSON. */
export interface VendorBatchHandle {
  protocol: BatchProtocol;
  /** The vendor's batch id (`batch_…`, `msgbatch_…`, `batches/…`). */
  id: string;
  /** OpenAI: the uploaded input file (`file-…`), to delete once the batch is done. */
  inputFileId?: string;
  /** Gemini: the model the batch runs on. */
  model?: string;
}

/**
 * - `in_progress`: accepted and running (OpenAI validating/in_progress/finalizing, Anthropic
 *   in_progress, Gemini pending/running);
 * - `cancelling`: a cancel was asked and the vendor is still stopping;
 * - `ended`: every line ran (some may have failed);
 * - `expired`: the vendor's window passed before every line ran; what ran has results;
 * - `cancelled`: stopped by a cancel; what ran before it has results;
 * - `failed`: the whole batch was refused (nothing ran).
 */
export type VendorBatchStatus = 'in_progress' | 'cancelling' | 'ended' | 'expired' | 'cancelled' | 'failed';

export interface VendorBatchCounts {
  total: number;
  /** Answered. */
  succeeded: number;
  /** Refused by the vendor or failed. */
  errored: number;
  /** Not yet run. */
  processing: number;
  cancelled: number;
  expired: number;
}

export interface VendorBatchState {
  handle: VendorBatchHandle;
  status: VendorBatchStatus;
  counts: VendorBatchCounts;
  /** True once results() can be read (every status but in_progress and cancelling). */
  resultsReady: boolean;
  /** A failed batch: the vendor's reason, short. */
  failure?: string;
}

/**
 * One line's outcome. `succeeded` carries the answer as the synchronous call would have given it
 * (tier is absent: batch is not a tier of a call); `errored` the vendor's refusal or failure of
 * that line, classified as for a synchronous call; `cancelled` and `expired` lines never ran.
 * Lines the vendor does not report (a Gemini batch cancelled or expired reports only the lines
 * that ran) did not run: the batch's status says why.
 */
export type VendorBatchResult =
  | { customId: string; outcome: 'succeeded'; result: ChatResult }
  | { customId: string; outcome: 'errored'; error: VendorError }
  | { customId: string; outcome: 'cancelled' }
  | { customId: string; outcome: 'expired' };

export interface VendorBatchAdapter {
  readonly specificationVersion: 'v1';
  readonly protocol: BatchProtocol;
  submit(submission: BatchSubmission, context: CallContext): Promise<VendorBatchHandle>;
  poll(handle: VendorBatchHandle, context: CallContext): Promise<VendorBatchState>;
  /**
   * The results, read as a stream (a 50,000-line batch is never held as one string). Only once
   * poll says resultsReady; throws VendorError `invalid_request` before.
   */
  results(handle: VendorBatchHandle, context: CallContext): AsyncIterable<VendorBatchResult>;
  /** Asks the vendor to stop; returns the state right after (usually `cancelling`). */
  cancel(handle: VendorBatchHandle, context: CallContext): Promise<VendorBatchState>;
}

export const emptyCounts = (): VendorBatchCounts => ({ total: 0, succeeded: 0, errored: 0, processing: 0, cancelled: 0, expired: 0 });
