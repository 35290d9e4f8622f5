import { ServiceError } from '@svc/errors';
import { ids, isId } from '@svc/ids';
import { expiresAtFor, organizationRetention, renderConversation, validateMetadata, validateRetentionDays, type ConversationObject } from '../domain/conversation-object';
import { addTotals, checkThreadLimits, totalsOf } from '../domain/history';
import { isItemId, normaliseInputItems, type StoredItem } from '../domain/items';
import { clock, conversationId, conversationNotFound, conversationTotals, insertItems, latestHead, requireConversation, requireOrganization, threadTotals, type StoreDeps } from './queries';
import { readItemsPage } from './sql';

/**
 * Conversations and their items: POST/GET/DELETE /v1/conversations, POST /v1/conversations/{id},
 * and GET/POST /v1/conversations/{id}/items.
 */

export interface CreateConversationInput {
  organization_id: string;
  metadata?: unknown;
  /** The conversation's own retention; absent: the organization's applies. */
  retention_days?: number;
  organization_retention_days: number;
  /** Input items in the request shapes; stored on the conversation's root. */
  items?: unknown;
  /** The id to use (conv_ + 32 hex); absent: a new one. */
  id?: string;
}

export interface ConversationResult {
  conversation: ConversationObject;
  /** Retention 0: the conversation reads as gone from now on; delete it once the reply was written. */
  delete_after_response: boolean;
}

/**
 * A transaction that may store thousands of items (a thread holds up to 4000): Prisma's default
 * five seconds is less than a loaded machine takes for that, and the callers' write deadline is ten
 * (libs/backends conversations-client), so it gets as long.
 */
const ITEMS_TRANSACTION = { maxWait: 5_000, timeout: 10_000 };

export async function createConversation(deps: StoreDeps, input: CreateConversationInput): Promise<ConversationResult> {
  const organizationId = requireOrganization(input.organization_id);
  const metadata = validateMetadata(input.metadata);
  const own = input.retention_days === undefined ? null : validateRetentionDays(input.retention_days);
  const days = own ?? organizationRetention(input.organization_retention_days);
  const items = normaliseInputItems(input.items ?? [], 'items');
  const stored = totalsOf(items);
  checkThreadLimits(stored);
  const id = input.id ?? ids.conversation();
  if (!isId('conv', id)) throw new ServiceError('invalid_value', `Invalid conversation id '${id}'.`, { param: 'conversation' });
  const now = clock(deps);
  const row = { id, organizationId, metadata, retentionDays: own, expiresAt: expiresAtFor(now, days), lastTurnAt: now, createdAt: now };
  await deps.prisma.$transaction(async (tx) => {
    await tx.conversation.create({ data: row });
    await insertItems(tx, id, null, 'added', items);
    await deps.beforeCommit?.('CreateConversation');
  }, ITEMS_TRANSACTION);
  return { conversation: renderConversation(row, stored), delete_after_response: days === 0 };
}

export async function getConversation(deps: StoreDeps, organizationId: string, id: string): Promise<ConversationObject> {
  const row = await requireConversation(deps.prisma, requireOrganization(organizationId), id, clock(deps));
  return renderConversation(row, await conversationTotals(deps.prisma, row.id));
}

/** Replaces the metadata. */
export async function updateConversation(deps: StoreDeps, organizationId: string, id: string, metadataInput: unknown): Promise<ConversationObject> {
  requireOrganization(organizationId);
  const metadata = validateMetadata(metadataInput);
  const updated = await deps.prisma.conversation.updateMany({ where: { id: conversationId(id), organizationId, expiresAt: { gt: clock(deps) } }, data: { metadata } });
  if (updated.count === 0) throw conversationNotFound(id);
  return getConversation(deps, organizationId, id);
}

/**
 * Immediate and permanent: the conversation, its responses and its items (ON DELETE CASCADE).
 * One that already expired is removed too but reported not found: it was gone for the client.
 */
export async function deleteConversation(deps: StoreDeps, organizationId: string, id: string): Promise<{ id: string; deleted: true }> {
  requireOrganization(organizationId);
  const now = clock(deps);
  const rows = await deps.prisma.$queryRaw<Array<{ expires_at: Date }>>`
    DELETE FROM conversations.conversation WHERE id = ${conversationId(id)} AND organization_id = ${organizationId} RETURNING expires_at`;
  if (rows.length === 0 || rows[0]!.expires_at.getTime() <= now.getTime()) throw conversationNotFound(id);
  return { id, deleted: true };
}

export interface ListItemsInput {
  organization_id: string;
  conversation_id: string;
  /** 1 to 100; absent or 0: 20. */
  limit?: number;
  /** An item id of this conversation (msg_, fc_, fco_, cmp_). */
  after?: string;
  order?: 'asc' | 'desc' | '';
}

export interface ItemList {
  object: 'list';
  data: StoredItem[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

const badCursor = (after: string) => new ServiceError('invalid_value', `Invalid 'after': no item '${after}' in this conversation.`, { param: 'after' });

/** Every thread's items in creation order (seq), compaction items included; one statement (readItemsPage). */
export async function listItems(deps: StoreDeps, input: ListItemsInput): Promise<ItemList> {
  const organizationId = requireOrganization(input.organization_id);
  const limit = input.limit === undefined || input.limit === 0 ? LIST_DEFAULT_LIMIT : input.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) throw new ServiceError('invalid_value', `Invalid 'limit': expected an integer from 1 to ${LIST_MAX_LIMIT}.`, { param: 'limit' });
  const order = input.order || 'asc';
  if (order !== 'asc' && order !== 'desc') throw new ServiceError('invalid_value', "Invalid 'order': expected 'asc' or 'desc'.", { param: 'order' });
  if (input.after && !isItemId(input.after)) {
    // Not an item id at all; still 404 first when the conversation is not there.
    await requireConversation(deps.prisma, organizationId, input.conversation_id, clock(deps));
    throw badCursor(input.after);
  }
  const rows = await readItemsPage(deps, { organizationId, conversationId: conversationId(input.conversation_id), now: clock(deps), order, take: limit + 1, ...(input.after ? { after: input.after } : {}) });
  if (rows === undefined) throw conversationNotFound(input.conversation_id);
  if (rows === 'bad cursor') throw badCursor(input.after!);
  const data = rows.slice(0, limit);
  return { object: 'list', data, has_more: rows.length > limit, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}

export interface AddItemsInput {
  organization_id: string;
  conversation_id: string;
  items: unknown;
}

/**
 * Items stored without a model turn. They attach after the conversation's latest turn (its
 * completed or incomplete response that ended last; the root when it has none): every thread
 * continuing from that turn, including the next turn given only the conversation, has them in its
 * history after that turn's items. A turn continuing from an older response (a new branch) does
 * not. The retention clock is not restarted (only turns restart it).
 */
export async function addItems(deps: StoreDeps, input: AddItemsInput): Promise<StoredItem[]> {
  const organizationId = requireOrganization(input.organization_id);
  if (input.items === undefined || input.items === null || (Array.isArray(input.items) && input.items.length === 0)) {
    throw new ServiceError('missing_field', "Missing required parameter: 'items' (at least one item).", { param: 'items' });
  }
  const items = normaliseInputItems(input.items, 'items');
  await deps.prisma.$transaction(async (tx) => {
    const conversation = await requireConversation(tx, organizationId, input.conversation_id, clock(deps), true);
    const head = await latestHead(tx, conversation.id);
    checkThreadLimits(addTotals(await threadTotals(tx, conversation.id, head), totalsOf(items)));
    await insertItems(tx, conversation.id, head, 'added', items);
    await deps.beforeCommit?.('AddItems');
  }, ITEMS_TRANSACTION);
  return items.map((prepared) => prepared.item);
}
