import { ServiceError, internalError } from '@svc/errors';
import { isId } from '@svc/ids';
import { Prisma as P } from '../generated/prisma/client';
import type { Prisma } from '../db';
import type { ConversationRow } from '../domain/conversation-object';
import { THREAD_MAX_CHARACTERS, THREAD_MAX_ENTRIES, type ThreadRow, type ThreadTotals } from '../domain/history';
import { tokensOf, type ItemOrigin, type PreparedItem } from '../domain/items';

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
    SELECT ${columns}, chain.depth FROM chain JOIN conversations.item i ON i.response_id = chain.id
    UNION ALL
    ${root}`;
}

export async function threadRows(db: Db, conversation: string, head: string | null): Promise<ThreadRow[]> {
  return db.$queryRaw<ThreadRow[]>`
    ${threadSql(conversation, head, P.sql`i.id, i.origin, i.body, i.characters, i.replaces, i.seq`)}
    ORDER BY depth DESC NULLS FIRST, seq`;
}

export interface ResolvedThread {
  conversationId: string;
  retentionDays: number | null;
  /** The thread head: the previous response, or the conversation's latest turn; null = the root. */
  head: string | null;
  rows: ThreadRow[];
}

/**
 * BuildHistory's read in one statement (the hot path): the organization's previous response (its
 * conversation unexpired) or conversation with its latest turn (the completed or incomplete
 * response with the highest turn_seq), then that thread's rows in thread order. Undefined when
 * the id is not the organization's (or expired).
 */
export async function readThread(db: Db, query: { organizationId: string; now: Date } & ({ previousResponseId: string } | { conversationId: string })): Promise<ResolvedThread | undefined> {
  const { organizationId, now } = query;
  const target =
    'previousResponseId' in query
      ? P.sql`SELECT r.conversation_id, c.retention_days, r.id AS head
                FROM conversations.response r JOIN conversations.conversation c ON c.id = r.conversation_id
               WHERE r.id = ${query.previousResponseId} AND r.organization_id = ${organizationId} AND c.organization_id = ${organizationId} AND c.expires_at > ${now}`
      : P.sql`SELECT c.id AS conversation_id, c.retention_days,
                     (SELECT r.id FROM conversations.response r
                       WHERE r.conversation_id = c.id AND r.status IN ('completed', 'incomplete')
                       ORDER BY r.turn_seq DESC LIMIT 1) AS head
                FROM conversations.conversation c
               WHERE c.id = ${query.conversationId} AND c.organization_id = ${organizationId} AND c.expires_at > ${now}`;
  const rows = await db.$queryRaw<Array<{ conversation_id: string; retention_days: number | null; head: string | null } & { [K in keyof ThreadRow]: ThreadRow[K] | null }>>`
    WITH RECURSIVE
    target AS (${target}),
    chain AS (
      SELECT r.id, r.parent_response_id, 0 AS depth FROM conversations.response r JOIN target ON r.id = target.head
      UNION ALL
      SELECT r.id, r.parent_response_id, chain.depth + 1
        FROM conversations.response r JOIN chain ON r.id = chain.parent_response_id
       WHERE chain.depth < 1000000
    ),
    thread AS (
      SELECT i.id, i.origin, i.body, i.characters, i.replaces, i.seq, chain.depth FROM chain JOIN conversations.item i ON i.response_id = chain.id
      UNION ALL
      SELECT i.id, i.origin, i.body, i.characters, i.replaces, i.seq, NULL::int AS depth
        FROM target JOIN conversations.item i ON i.conversation_id = target.conversation_id AND i.response_id IS NULL
    )
    SELECT target.conversation_id, target.retention_days, target.head, thread.id, thread.origin, thread.body, thread.characters, thread.replaces, thread.seq
      FROM target LEFT JOIN thread ON true
     ORDER BY thread.depth DESC NULLS FIRST, thread.seq`;
  const first = rows[0];
  if (!first) return undefined;
  return {
    conversationId: first.conversation_id,
    retentionDays: first.retention_days,
    head: first.head,
    rows: rows.filter((row) => row.id !== null) as unknown as ThreadRow[],
  };
}

/** Entries and characters of a thread (every stored row on it), without reading the bodies. */
export async function threadTotals(db: Db, conversation: string, head: string | null): Promise<ThreadTotals> {
  const rows = await db.$queryRaw<Array<{ entries: number; characters: bigint }>>`
    SELECT count(*)::int AS entries, COALESCE(sum(t.characters), 0)::bigint AS characters
      FROM (${threadSql(conversation, head, P.sql`i.characters`)}) t`;
  return { entries: rows[0]!.entries, characters: Number(rows[0]!.characters) };
}

/** Stores items on one node (a response, or the root when `node` is null), in order. */
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

export interface TurnWrite {
  organizationId: string;
  conversationId: string;
  /** Set: the turn creates the conversation (with this retention; null = the organization's). */
  create: { retentionDays: number | null } | null;
  responseId: string;
  parentResponseId: string | null;
  status: string;
  background: boolean;
  body: unknown;
  stream: unknown;
  items: ReadonlyArray<PreparedItem & { origin: ItemOrigin }>;
  /** What the turn adds to the thread. */
  turn: ThreadTotals;
  now: Date;
  expiresAt: Date;
}

/**
 * A turn's writes as one statement (the hot path: one round trip inside the turn's transaction):
 * the thread's totals from the parent up to the root, the check that the parent is in the
 * conversation and that the thread stays within its limits, then, only when both hold, the
 * conversation (created, or its retention clock restarted), the response and its items in order.
 * Returns whether it stored, whether the parent was found, and the thread's totals before the turn.
 */
export async function writeTurn(db: Db, write: TurnWrite): Promise<{ stored: boolean; parentFound: boolean; before: ThreadTotals }> {
  const items = write.items.map(({ item, characters, origin }) => ({ id: item.id, type: item.type, origin, body: item, characters, tokens: tokensOf(characters) }));
  const conversationRow = write.create
    ? P.sql`INSERT INTO conversations.conversation (id, organization_id, metadata, retention_days, expires_at, last_turn_at, created_at)
            SELECT ${write.conversationId}, ${write.organizationId}, '{}'::jsonb, ${write.create.retentionDays}::int, ${write.expiresAt}, ${write.now}, ${write.now} WHERE EXISTS (SELECT 1 FROM ok)
            RETURNING id`
    : P.sql`UPDATE conversations.conversation SET expires_at = ${write.expiresAt}, last_turn_at = ${write.now}
             WHERE id = ${write.conversationId} AND EXISTS (SELECT 1 FROM ok)
            RETURNING id`;
  const rows = await db.$queryRaw<Array<{ stored: boolean; parent_found: boolean; entries: number; characters: bigint }>>`
    WITH RECURSIVE
    parent AS (
      SELECT id FROM conversations.response WHERE id = ${write.parentResponseId}::text AND conversation_id = ${write.conversationId}
    ),
    chain AS (
      SELECT r.id, r.parent_response_id, 0 AS depth FROM conversations.response r JOIN parent ON parent.id = r.id
      UNION ALL
      SELECT r.id, r.parent_response_id, chain.depth + 1
        FROM conversations.response r JOIN chain ON r.id = chain.parent_response_id
       WHERE chain.depth < 1000000
    ),
    thread AS (
      SELECT i.characters FROM chain JOIN conversations.item i ON i.response_id = chain.id
      UNION ALL
      SELECT i.characters FROM conversations.item i WHERE i.conversation_id = ${write.conversationId} AND i.response_id IS NULL
    ),
    totals AS (
      SELECT count(*)::int AS entries, COALESCE(sum(characters), 0)::bigint AS characters FROM thread
    ),
    parent_found AS (
      SELECT ${write.parentResponseId}::text IS NULL OR EXISTS (SELECT 1 FROM parent) AS found
    ),
    ok AS (
      SELECT 1 FROM totals, parent_found
       WHERE parent_found.found
         AND totals.entries + ${write.turn.entries}::int <= ${THREAD_MAX_ENTRIES}::int
         AND totals.characters + ${write.turn.characters}::bigint <= ${THREAD_MAX_CHARACTERS}::bigint
    ),
    conversation_row AS (${conversationRow}),
    response_row AS (
      INSERT INTO conversations.response (id, organization_id, conversation_id, parent_response_id, status, background, body, stream)
      SELECT ${write.responseId}, ${write.organizationId}, ${write.conversationId}, ${write.parentResponseId}::text, ${write.status}, ${write.background},
             ${JSON.stringify(write.body)}::jsonb, ${write.stream === null || write.stream === undefined ? null : JSON.stringify(write.stream)}::jsonb
       WHERE EXISTS (SELECT 1 FROM ok)
      RETURNING id
    ),
    item_rows AS (
      -- jsonb_array_elements yields the items in order, so their seq follows it.
      INSERT INTO conversations.item (id, conversation_id, response_id, type, origin, body, characters, token_estimate)
      SELECT e->>'id', ${write.conversationId}, ${write.responseId}, e->>'type', e->>'origin', e->'body', (e->>'characters')::int, (e->>'tokens')::int
        FROM jsonb_array_elements(${JSON.stringify(items)}::jsonb) AS e
       WHERE EXISTS (SELECT 1 FROM ok)
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM ok) AS stored, parent_found.found AS parent_found, totals.entries, totals.characters
      FROM totals, parent_found`;
  const row = rows[0]!;
  return { stored: row.stored, parentFound: row.parent_found, before: { entries: row.entries, characters: Number(row.characters) } };
}
