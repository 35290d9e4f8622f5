/**
 * The batch object (spec: Batch object) rendered from its row, and the numbers the batch
 * endpoints are held to (spec: Limits, Batches).
 */

/** 50,000 lines per batch (400 batch_too_large). */
export const MAX_BATCH_LINES = 50_000;
/** 20 open batches per organization (429 too_many_open_batches). */
export const MAX_OPEN_BATCHES = 20;
/** GET /v1/batches limit: 1 to 100, default 20. */
export const MAX_BATCH_LIST_LIMIT = 100;
export const DEFAULT_BATCH_LIST_LIMIT = 20;
/** The completion window (only `24h`); expires_at is this long after created_at. */
export const COMPLETION_WINDOW_MS = 24 * 3_600_000;

/** States that have not ended (the input file is in use; they count against the 20). */
export const OPEN_STATES = ['validating', 'in_progress', 'finalizing', 'cancelling'] as const;
export const ENDED_STATES = ['failed', 'completed', 'expired', 'cancelled'] as const;

export interface BatchRow {
  id: string;
  organization_id: string;
  key_id: string;
  input_file_id: string;
  status: string;
  endpoint: string;
  completion_window: string;
  metadata: Record<string, string> | null;
  allow_standard_price: boolean;
  errors: Array<{ code: string; message: string; param: string | null; line: number | null }> | null;
  output_file_id: string | null;
  error_file_id: string | null;
  total: number;
  completed: number;
  failed: number;
  vendor_micros: string | number;
  billed_micros: string | number;
  direct_micros: string | number;
  saved_micros: string | number;
  retention_days: number;
  created_at: Date;
  expires_at: Date;
  in_progress_at: Date | null;
  finalizing_at: Date | null;
  completed_at: Date | null;
  failed_at: Date | null;
  expired_at: Date | null;
  cancelling_at: Date | null;
  cancelled_at: Date | null;
}

export const BATCH_COLUMNS =
  'id, organization_id, key_id, input_file_id, status, endpoint, completion_window, metadata, allow_standard_price, errors, output_file_id, error_file_id, total, completed, failed, vendor_micros, billed_micros, direct_micros, saved_micros, retention_days, created_at, expires_at, in_progress_at, finalizing_at, completed_at, failed_at, expired_at, cancelling_at, cancelled_at';

const seconds = (at: Date | null): number | null => (at ? Math.floor(at.getTime() / 1000) : null);

/**
 * Spec (Batch object). Every timestamp is present (null until it happened), as in the common API;
 * `errors` is null unless the batch failed; request_counts.failed counts failed, expired and
 * cancelled lines; svc.cost holds running totals of the billed lines.
 */
export function batchObject(row: BatchRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'batch',
    endpoint: row.endpoint,
    errors: row.errors && row.errors.length > 0 ? { object: 'list', data: row.errors } : null,
    input_file_id: row.input_file_id,
    completion_window: row.completion_window,
    status: row.status,
    output_file_id: row.output_file_id,
    error_file_id: row.error_file_id,
    created_at: seconds(row.created_at),
    in_progress_at: seconds(row.in_progress_at),
    expires_at: seconds(row.expires_at),
    finalizing_at: seconds(row.finalizing_at),
    completed_at: seconds(row.completed_at),
    failed_at: seconds(row.failed_at),
    expired_at: seconds(row.expired_at),
    cancelling_at: seconds(row.cancelling_at),
    cancelled_at: seconds(row.cancelled_at),
    request_counts: { total: row.total, completed: row.completed, failed: row.failed },
    metadata: row.metadata ?? {},
    svc: {
      tier: 'batch',
      ...(row.allow_standard_price ? { allow_standard_price: true } : {}),
      cost: {
        vendor_micros: Number(row.vendor_micros),
        billed_micros: Number(row.billed_micros),
        direct_micros: Number(row.direct_micros),
        saved_micros: Number(row.saved_micros),
        classifier_micros: 0,
      },
    },
  };
}
