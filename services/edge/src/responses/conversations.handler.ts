import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { KeyRecord__Output } from '@svc/protos';
import { parseInputItems, parseMetadata, parseRetentionDays, refuseUnstorableText } from '@svc/call';
import type { ConversationsClient } from '@svc/backends';
import { requireScopes } from '../auth/authenticate';

/** Conversation endpoints (scope conversations; spec: Conversation endpoints). Storage is the conversations service's. */
export interface ConversationDeps {
  conversations: ConversationsClient;
  /** The organization's retention when a conversation sets none (days). */
  retentionDays: number;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });

function context(req: Request, res: Response): { organization_id: string; conversation_id: string } {
  const key = res.locals.key as KeyRecord__Output;
  requireScopes(key, ['conversations']);
  return { organization_id: key.organization_id, conversation_id: String(req.params.id ?? '') };
}

/** A body that may be empty ({} when none was sent); otherwise a JSON object of storable text. */
function bodyOf(req: Request): Json {
  if (req.body === undefined) return {};
  if (!isObject(req.body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');
  refuseUnstorableText(req.body);
  return req.body;
}

export function conversationHandlers(deps: ConversationDeps) {
  return {
    /** POST /v1/conversations: metadata, items stored without a turn, svc.retention_days. */
    create: async (req: Request, res: Response): Promise<void> => {
      const { organization_id } = context(req, res);
      const body = bodyOf(req);
      const metadata = parseMetadata(body.metadata);
      const items = body.items === undefined || body.items === null ? [] : parseInputItems(body.items, 'items');
      if (body.svc !== undefined && body.svc !== null && !isObject(body.svc)) throw invalid('svc', "'svc' must be an object.");
      const retentionDays = parseRetentionDays(isObject(body.svc) ? body.svc.retention_days : undefined);
      const created = await deps.conversations.createConversation({ organization_id, metadata, items, ...(retentionDays !== undefined ? { retention_days: retentionDays } : {}), organization_retention_days: deps.retentionDays });
      res.status(200).json(created.conversation);
    },
    get: async (req: Request, res: Response): Promise<void> => {
      res.status(200).json(await deps.conversations.getConversation(context(req, res)));
    },
    /** POST /v1/conversations/{id}: replaces metadata (a body without `metadata` changes nothing; `null` clears it). */
    update: async (req: Request, res: Response): Promise<void> => {
      const query = context(req, res);
      const body = bodyOf(req);
      if (body.metadata === undefined) {
        res.status(200).json(await deps.conversations.getConversation(query));
        return;
      }
      res.status(200).json(await deps.conversations.updateConversation({ ...query, metadata: parseMetadata(body.metadata) }));
    },
    delete: async (req: Request, res: Response): Promise<void> => {
      res.status(200).json(await deps.conversations.deleteConversation(context(req, res)));
    },
    /** GET /v1/conversations/{id}/items?limit&after&order */
    listItems: async (req: Request, res: Response): Promise<void> => {
      const query = context(req, res);
      const raw = req.query;
      let limit = 20;
      if (raw.limit !== undefined) {
        limit = Number(raw.limit);
        if (typeof raw.limit !== 'string' || !/^\d+$/.test(raw.limit) || limit < 1 || limit > 100) throw invalid('limit', "'limit' must be an integer from 1 to 100.");
      }
      if (raw.order !== undefined && raw.order !== 'asc' && raw.order !== 'desc') throw invalid('order', "'order' must be 'asc' or 'desc'.");
      if (raw.after !== undefined && (typeof raw.after !== 'string' || !/^(msg|fc|fco|cmp)_[0-9a-f_]+$/.test(raw.after))) throw invalid('after', "'after' must be an item id (msg_, fc_, fco_ or cmp_).");
      res.status(200).json(await deps.conversations.listItems({ ...query, limit, ...(typeof raw.after === 'string' ? { after: raw.after } : {}), order: raw.order === 'desc' ? 'desc' : 'asc' }));
    },
    /** POST /v1/conversations/{id}/items: {items: [...]}, at least one. */
    addItems: async (req: Request, res: Response): Promise<void> => {
      const query = context(req, res);
      const body = bodyOf(req);
      if (body.items === undefined || body.items === null || (Array.isArray(body.items) && body.items.length === 0)) throw new ServiceError('missing_field', "'items' must hold at least one item.", { param: 'items' });
      res.status(200).json(await deps.conversations.addItems({ ...query, items: parseInputItems(body.items, 'items') }));
    },
  };
}
