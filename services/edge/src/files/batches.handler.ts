import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { KeyRecord__Output } from '@svc/protos';
import type { BatchClient } from '@svc/backends';
import type { BatchStartJob } from '@svc/messages';
import { parseMetadata } from '@svc/call';
import { extractKey, requireScopes } from '../auth/authenticate';

/** Batch endpoints (scope chat; spec: Batch endpoints). State is the batch service's; lines run on the workers. */
export interface BatchesDeps {
  batch: Pick<BatchClient, 'createBatch' | 'getBatch' | 'listBatches' | 'cancelBatch' | 'batchWork'>;
  /** Publishes batch.start (the workers validate and start the batch). */
  start: (job: BatchStartJob) => Promise<void>;
  /** Announces a batch now `cancelling` to the workers running its lines (best effort: they also poll its status). */
  announceCancel?: (batchId: string) => Promise<void>;
  /** The organization's retention (days): the output and error files are kept that long. */
  retentionDays: number;
  logger: Logger;
  /** x-sim-* headers forwarded to the simulator (development and tests only). */
  simulatorHeaders?: (req: Request) => Record<string, string> | undefined;
}

/** Spec (Batch endpoints, Limits). */
export const BATCH_ENDPOINTS = ['/v1/chat/completions'] as const;
export const COMPLETION_WINDOWS = ['24h'] as const;
export const MAX_BATCH_LIST_LIMIT = 100;

const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });
const missing = (param: string) => new ServiceError('missing_field', `Missing required parameter: '${param}'.`, { param });

function keyOf(res: Response): KeyRecord__Output {
  const key = res.locals.key as KeyRecord__Output;
  requireScopes(key, ['chat']);
  return key;
}

/**
 * The body of POST /v1/batches, checked in the spec's order: input_file_id and endpoint
 * required (400 missing_field), endpoint only `/v1/chat/completions`, completion_window only
 * `24h` (absent: `24h`), metadata up to 16 string pairs (keys up to 64 characters, values up to
 * 512), svc.allow_standard_price a boolean (400 invalid_value naming the field).
 */
export function parseCreateBatch(body: unknown): { input_file_id: string; endpoint: string; completion_window: string; metadata: Record<string, string> | null; allow_standard_price: boolean } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');
  const input = body as Record<string, unknown>;
  if (input.input_file_id === undefined || input.input_file_id === null || input.input_file_id === '') throw missing('input_file_id');
  if (typeof input.input_file_id !== 'string') throw invalid('input_file_id', "'input_file_id' must be a file id string.");
  if (input.endpoint === undefined || input.endpoint === null || input.endpoint === '') throw missing('endpoint');
  if (typeof input.endpoint !== 'string' || !(BATCH_ENDPOINTS as readonly string[]).includes(input.endpoint)) throw invalid('endpoint', `'endpoint' must be '/v1/chat/completions' (the only batch endpoint), not ${JSON.stringify(input.endpoint)}.`);
  const window = input.completion_window ?? '24h';
  if (typeof window !== 'string' || !(COMPLETION_WINDOWS as readonly string[]).includes(window)) throw invalid('completion_window', `'completion_window' must be '24h', not ${JSON.stringify(window)}.`);
  const metadata = input.metadata === undefined || input.metadata === null ? null : parseMetadata(input.metadata);
  let allowStandardPrice = false;
  if (input.svc !== undefined && input.svc !== null) {
    if (typeof input.svc !== 'object' || Array.isArray(input.svc)) throw invalid('svc', "'svc' must be an object.");
    const option = (input.svc as Record<string, unknown>).allow_standard_price;
    if (option !== undefined && option !== null) {
      if (typeof option !== 'boolean') throw invalid('svc.allow_standard_price', "'svc.allow_standard_price' must be a boolean.");
      allowStandardPrice = option;
    }
  }
  return { input_file_id: input.input_file_id, endpoint: input.endpoint, completion_window: window, metadata, allow_standard_price: allowStandardPrice };
}

function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, `'${name}' must be given once, as a string.`);
  return value;
}

export function batchHandlers(deps: BatchesDeps) {
  return {
    /** POST /v1/batches. */
    create: async (req: Request, res: Response): Promise<void> => {
      const key = keyOf(res);
      const fields = parseCreateBatch(req.body);
      const batch = await deps.batch.createBatch({ organization_id: key.organization_id, key_id: key.key_id, ...fields, organization_retention_days: deps.retentionDays });
      const secret = extractKey(req.headers.authorization, req.headers['x-api-key'] as string | undefined);
      try {
        await deps.start({
          batch_id: batch.id,
          organization_id: key.organization_id,
          key: { ...key } as Record<string, unknown>,
          key_hash: secret ? createHash('sha256').update(secret, 'utf8').digest('hex') : '',
          allow_standard_price: fields.allow_standard_price,
          simulator_headers: deps.simulatorHeaders?.(req) ?? {},
        });
      } catch (error) {
        // Nothing will run it: the batch ends failed at once (no line ran, nothing billed) and the client is told to retry.
        deps.logger.error('batch created but batch.start could not be published: the batch is failed; check RabbitMQ (AMQP_URL) and the workers', { batch_id: batch.id, err: error });
        await deps.batch.batchWork('FailBatch', { organization_id: key.organization_id, batch_id: batch.id, errors: [{ code: 'batches_unavailable', message: 'The batch workers could not be reached; create the batch again.', param: null, line: null }] }).catch(() => undefined);
        throw new ServiceError('batches_unavailable', 'The batch workers cannot be reached right now; the batch was not started. Please retry.', { cause: error });
      }
      res.status(200).json(batch);
    },
    /** GET /v1/batches?limit&after: newest first. */
    list: async (req: Request, res: Response): Promise<void> => {
      const key = keyOf(res);
      const limitText = queryValue(req, 'limit');
      let limit: number | undefined;
      if (limitText !== undefined) {
        limit = Number(limitText);
        if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_BATCH_LIST_LIMIT) throw invalid('limit', `'limit' must be an integer from 1 to ${MAX_BATCH_LIST_LIMIT}.`);
      }
      const after = queryValue(req, 'after');
      res.status(200).json(await deps.batch.listBatches({ organization_id: key.organization_id, ...(limit ? { limit } : {}), ...(after ? { after } : {}) }));
    },
    /** GET /v1/batches/{id}. */
    get: async (req: Request, res: Response): Promise<void> => {
      const key = keyOf(res);
      res.status(200).json(await deps.batch.getBatch({ organization_id: key.organization_id, batch_id: String(req.params.id) }));
    },
    /** POST /v1/batches/{id}/cancel. */
    cancel: async (req: Request, res: Response): Promise<void> => {
      const key = keyOf(res);
      const batch = await deps.batch.cancelBatch({ organization_id: key.organization_id, batch_id: String(req.params.id) });
      if (batch.status === 'cancelling' && deps.announceCancel) {
        // Best effort: a worker that misses it stops at its next status check (about a second).
        await deps.announceCancel(String(batch.id)).catch((error: unknown) => deps.logger.warn('batch cancel not announced; its workers stop at their next status check', { batch_id: batch.id, err: error }));
      }
      res.status(200).json(batch);
    },
  };
}
