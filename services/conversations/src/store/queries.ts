import { ServiceError, internalError } from '@svc/errors';
import { isId } from '@svc/ids';
import { Prisma as P } from '../generated/prisma/client';
import type { Prisma } from '../db';
import type { ConversationRow } from '../domain/conversation-object';
import type { ThreadRow, ThreadTotals } from '../domain/history';
import { tokensOf, type ItemOrigin, type PreparedItem } from '../domain/items';
import { nodeItems } from './sql';

/** A client or an open transaction: the queries below run on either. */
export type Db = Prisma | P.TransactionClient;

export interface StoreDeps {
  prisma: Prisma;
  /** The clock (retention, expiry); injectable for tests. */
  now?: () => Date;
  /**
   * Test seam: runs inside every write transaction right before it commits; a throw rolls the
   * whole transaction back (how the tests show a turn is stored whole or not at all).
   */
  beforeCommit?: (operation: string) => Promise<void> | void;
}

export const clock = (deps: StoreDeps): Date => (deps.now ? deps.now() : new Date());

/** Every RPC names its organization; none is a caller bug (internal_error), never "everyone's". */
export function requireOrganization(organizationId: string): string {
  if (!organizationId) throw internalError(new Error('organization_id is required'));
  return organizationId;
}

export const conversationNotFound = (id: string) => new ServiceError('conversation_not_found', `Conversation with id '${id}' not found.`, { param: 'conversation' });
export const responseNotFound = (id: string) => new ServiceError('response_not_found', `Response with id '${id}' not found.`, { param: 'response_id' });
export const previousResponseNotFound = (id: string) => new ServiceError('previous_response_not_found', `Previous response with id '${id}' not found.`, { param: 'previous_response_id' });

/** Not found unless it is a well-formed conversation id (a malformed id is simply unknown). */
export function conversationId(id: string): string {
  if (!isId('conv', id)) throw conversationNotFound(id);
  return id;
}

/**
 * The organization's conversation, unless it expired (a conversation is deleted at its
 * expires_at; the sweep may not have run yet). `lock` takes its row for the transaction: every
 * write to a conversation's threads holds it, so limit checks and thread heads never race.
 */
export async function findConversation(db: Db, organizationId: string, id: string, now: Date, lock = false): Promise<ConversationRow | undefined> {
  const rows = await db.$queryRaw<ConversationRow[]>`
    SELECT id, metadata, retention_days AS "retentionDays", expires_at AS "expiresAt", last_turn_at AS "lastTurnAt", created_at AS "createdAt"
      FROM conversations.conversation
     WHERE id = ${id} AND organization_id = ${organizationId} AND expires_at > ${now}
     ${lock ? P.sql`FOR UPDATE` : P.empty}`;
  return rows[0];
}

export async function requireConversation(db: Db, organizationId: string, id: string, now: Date, lock = false): Promise<ConversationRow> {
  const row = await findConversation(db, organizationId, conversationId(id), now, lock);
  if (!row) throw conversationNotFound(id);
  return row;
}

/** Every stored item of a conversation, all threads. */
export async function conversationTotals(db: Db, id: string): Promise<ThreadTotals> {
  const rows = await db.$queryRaw<Array<{ entries: number; characters: bigint }>>`
    SELECT count(*)::int AS entries, COALESCE(sum(characters), 0)::bigint AS characters FROM conversations.item WHERE conversation_id = ${id}`;
  return { entries: rows[0]!.entries, characters: Number(rows[0]!.characters) };
}

/** The conversation's latest turn: its completed or incomplete response that ended last. */
export async function latestHead(db: Db, conversation: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM conversations.response
     WHERE conversation_id = ${conversation} AND status IN ('completed', 'incomplete')
     ORDER BY turn_seq DESC LIMIT 1`;
  return rows[0]?.id ?? null;
}

/** True when the response is a node of this conversation. */
export async function responseInConversation(db: Db, conversation: string, responseId: string): Promise<boolean> {
  if (!isId('resp', responseId)) return false;
  const rows = await db.$queryRaw<unknown[]>`SELECT 1 FROM conversations.response WHERE id = ${responseId} AND conversation_id = ${conversation}`;
  return rows.length > 0;
}

/**
 * The rows of a thread: the chain of parents from `head` up to the root (the recursive part),
 * each response's items by seq, after the root's items (response_id null). Root first, head last.
 */
function threadSql(conversation: string, head: string | null, columns: P.Sql): P.Sql {
  const root = P.sql`SELECT ${columns}, NULL::int AS depth FROM conversations.item i WHERE i.conversation_id = ${conversation} AND i.response_id IS NULL`;
  if (head === null) return root;
  return P.sql`
    WITH RECURSIVE chain AS (
      SELECT id, parent_response_id, 0 AS depth FROM conversations.response WHERE id = ${head} AND conversation_id = ${conversation}
      UNION ALL
      SELECT r.id, r.parent_response_id, chain.depth + 1
        FROM conversations.response r JOIN chain ON r.id = chain.parent_response_id
       WHERE chain.depth < 1000000
    )
    SELECT ${columns}, chain.depth FROM chain CROSS JOIN LATERAL (${P.raw(nodeItems('i.*'))}) i
    UNION ALL
    ${root}`;
}

export async function threadRows(db: Db, conversation: string, head: string | null): Promise<ThreadRow[]> {
  return db.$queryRaw<ThreadRow[]>`
    ${threadSql(conversation, head, P.sql`i.id, i.origin, i.body, i.characters, i.replaces, i.seq`)}
    ORDER BY depth DESC NULLS FIRST, seq`;
}

/**
 * Entries and characters of a thread (every stored row on it), without reading it: the root's own
 * items and the head's chain totals (response.chain_entries / chain_characters, migration
 * 0005_thread_totals), in one statement. A head that is not a node of the conversation (or none)
 * adds nothing.
 */
export async function threadTotals(db: Db, conversation: string, head: string | null): Promise<ThreadTotals> {
  const rows = await db.$queryRaw<Array<{ entries: number; characters: bigint }>>`
    SELECT COALESCE(sum(t.entries), 0)::int AS entries, COALESCE(sum(t.characters), 0)::bigint AS characters FROM (
      SELECT count(*) AS entries, sum(i.characters) AS characters FROM conversations.item i WHERE i.conversation_id = ${conversation} AND i.response_id IS NULL
      UNION ALL
      SELECT r.chain_entries, r.chain_characters FROM conversations.response r WHERE r.id = ${head} AND r.conversation_id = ${conversation}
    ) t`;
  return { entries: rows[0]!.entries, characters: Number(rows[0]!.characters) };
}

/**
 * Stores items on one node (a response, or the root when `node` is null), in order. The database
 * adds them to the thread totals of that response and of every response below it (trigger
 * item_chain_totals, migration 0005_thread_totals); callers hold the conversation row's lock, as
 * every write to its threads does.
 */
export async function insertItems(db: Db, conversation: string, node: string | null, origin: ItemOrigin, items: readonly PreparedItem[], replaces: string[] = []): Promise<void> {
  if (items.length === 0) return;
  // One multi-row INSERT: seq (the creation order) follows the order of the rows.
  await db.item.createMany({
    data: items.map(({ item, characters }) => ({
      id: item.id,
      conversationId: conversation,
      responseId: node,
      type: item.type,
      origin,
      body: item as unknown as P.InputJsonValue,
      characters,
      tokenEstimate: tokensOf(characters),
      replaces,
    })),
  });
}
