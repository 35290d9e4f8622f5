import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineMessage } from '@svc/amqp';

/**
 * batch.start v1: a batch was created (`validating`). Published by the edge after CreateBatch;
 * consumed by the workers, which read the input file, check every line (the failure codes of the
 * spec's batch errors), check the key and the credit, then start the batch (StartBatch: its line
 * rows, `in_progress`) and publish its lines in chunks (batch.line.run). Acked only after that:
 * a worker that dies midway leaves the job to another, which picks up where the batch is
 * (a started batch has its chunks published again; lines already committed are skipped).
 */
export const batchStartSchema = z.object({
  batch_id: z.string().min(1),
  organization_id: z.string().min(1),
  /** The caller's key record (plan, limits, member, expiry; no secret): the lines are billed to it. */
  key: z.record(z.string(), z.unknown()),
  /** sha256 of the key, to see at validation whether it was revoked meanwhile (api_key_revoked). */
  key_hash: z.string().default(''),
  allow_standard_price: z.boolean().default(false),
  /** x-sim-* headers forwarded to the simulator (development and tests only). */
  simulator_headers: z.record(z.string(), z.string()).default({}),
});
export type BatchStartJob = z.infer<typeof batchStartSchema>;
export const batchStart = defineMessage('batch.start', 1, batchStartSchema);

/**
 * batch.line.run v1: a chunk of a started batch's lines (index from 0, custom_id, the request
 * body). Each line runs through the call pipeline under a call id derived from (batch, index)
 * (lineCallIds), and its outcome is committed with its usage record in one transaction
 * (CommitLines), so a chunk redelivered after a worker died bills and writes each line once.
 */
export const batchLineRunSchema = z.object({
  batch_id: z.string().min(1),
  organization_id: z.string().min(1),
  key: z.record(z.string(), z.unknown()),
  allow_standard_price: z.boolean().default(false),
  simulator_headers: z.record(z.string(), z.string()).default({}),
  lines: z.array(z.object({ index: z.number().int().min(0), custom_id: z.string(), body: z.record(z.string(), z.unknown()) })).min(1),
});
export type BatchLineRunJob = z.infer<typeof batchLineRunSchema>;
export const batchLineRun = defineMessage('batch.line.run', 1, batchLineRunSchema);

/**
 * Redis pub/sub channel on which a batch moved to `cancelling` is announced (message: the batch id),
 * so the workers running its chunks stop starting lines and cut the calls in flight at once rather
 * than at their next status check (spec: lines not yet at a vendor are cancelled).
 */
export const BATCH_CANCEL_CHANNEL = 'batch:cancel';

/** The ids of a batch line's call: the same on every run of the line, so billing is idempotent on (batch, line). */
export function lineCallIds(batchId: string, index: number): { callId: string; completionId: string; requestId: string; lineId: string } {
  const hex = createHash('sha256').update(`${batchId}:${index}`).digest('hex');
  return { callId: `call_${hex.slice(0, 32)}`, completionId: `chatcmpl-${hex.slice(0, 32)}`, requestId: `req_${hex.slice(32, 64)}`, lineId: `batch_req_${hex.slice(0, 32)}` };
}

/**
 * The lines of a batch JSONL file as it arrives (index from 0), as the upload check counts them:
 * lines end with `\n` (a `\r` before it is dropped), the newline after the last line is optional,
 * a UTF-8 byte order mark before the first line is skipped.
 */
export async function* splitJsonl(chunks: AsyncIterable<Buffer>): AsyncGenerator<{ index: number; text: string }> {
  let held: Buffer[] = [];
  let index = 0;
  let first = true;
  const text = (bytes: Buffer) => {
    let line = bytes;
    if (first) {
      first = false;
      if (line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    return line.toString('utf8');
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        if (start < chunk.length) held.push(chunk.subarray(start));
        break;
      }
      const part = chunk.subarray(start, newline);
      const bytes = held.length > 0 ? Buffer.concat([...held, part]) : part;
      held = [];
      yield { index: index++, text: text(bytes) };
      start = newline + 1;
    }
  }
  if (held.length > 0) {
    const bytes = Buffer.concat(held);
    if (bytes.length > 0) yield { index: index++, text: text(bytes) };
  }
}

/**
 * Spec (File object): the file as the batch service stores it and returns it to its callers (the
 * edge reads it back over gRPC as JSON).
 */
export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  expires_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
}
