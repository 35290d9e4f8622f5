import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { poolOf } from '../db';
import { THREAD_MAX_CHARACTERS, THREAD_MAX_ENTRIES, type ThreadRow, type ThreadTotals } from '../domain/history';
import { tokensOf, type ItemOrigin, type PreparedItem, type StoredItem } from '../domain/items';
import type { StoreDeps } from './queries';

/**
 * The hot path on plain `pg`: the statements that sit on every Responses turn (BuildHistory,
 * CompleteTurn), GET /v1/responses/{id} and the items list. Same SQL as through Prisma, without
 * Prisma's per-statement and per-transaction overhead, as named statements: Postgres parses and
 * plans each once per connection, later calls only bind and execute. The pool is the one Prisma
 * uses (db.ts). Parameters are cast to their types; pg returns bigint columns as strings,
 * converted here. Named statements live on a server connection: behind a pooler in transaction
 * mode they need PgBouncer 1.21+ with max_prepared_statements set (session mode needs nothing).
 */

type Queryable = Pool | PoolClient;

interface Statement {
  name: string;
  text: string;
}

const statement = (name: string, text: string): Statement => ({ name: `conversations.${name}`, text });

async function rows<T extends QueryResultRow>(db: Queryable, query: Statement, values: unknown[]): Promise<T[]> {
  return (await db.query<T>({ name: query.name, text: query.text, values })).rows;
}

export const poolFor = (deps: StoreDeps): Pool => poolOf(deps.prisma);

/**
 * One transaction on one connection: BEGIN, `work`, the test seam (`beforeCommit`), COMMIT. Any
 * failure rolls back; a connection whose rollback fails is discarded, not returned to the pool.
 */
export async function transaction<T>(deps: StoreDeps, operation: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await poolFor(deps).connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await deps.beforeCommit?.(operation);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (rollbackError) {
      client.release(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError)));
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// BuildHistory

export interface ResolvedThread {
  conversationId: string;
  retentionDays: number | null;
  /** When the conversation expires (its retention clock as read). */
  expiresAt: Date;
  /** The thread head: the previous response, or the conversation's latest turn; null = the root. */
  head: string | null;
  /** The head's status (`queued`: a background response that has not ended). */
  headStatus: string | null;
  rows: ThreadRow[];
}

/**
 * The items of one node of a thread (`chain.id`), looked up by item_response_id_seq_idx. OFFSET 0
 * keeps Postgres from flattening the subquery into a join: without it, when the table's
 * statistics are stale or missing, it can choose a hash join over a sequential scan of every
 * conversation's items. With it, one index lookup per node: the cost follows the thread, not the table.
 */
export const nodeItems = (columns: string) => `SELECT ${columns} FROM conversations.item i WHERE i.response_id = chain.id OFFSET 0`;

/**
 * The thread of `target` (conversation_id, retention_days, head): the chain of parents from the
 * head up to the root, each response's items by seq, after the root's items; root first, head
 * last. One row per item, or one row of nulls when the thread has none.
 */
const threadOf = (target: string) => `
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
    SELECT i.id, i.origin, i.body, i.characters, i.replaces, i.seq, chain.depth
      FROM chain CROSS JOIN LATERAL (${nodeItems('i.id, i.origin, i.body, i.characters, i.replaces, i.seq')}) i
    UNION ALL
    SELECT i.id, i.origin, i.body, i.characters, i.replaces, i.seq, NULL::int AS depth
      FROM target JOIN conversations.item i ON i.conversation_id = target.conversation_id AND i.response_id IS NULL
  )
  SELECT target.conversation_id, target.retention_days, target.expires_at, target.head, target.head_status, thread.id, thread.origin, thread.body, thread.characters, thread.replaces, thread.seq
    FROM target LEFT JOIN thread ON true
   ORDER BY thread.depth DESC NULLS FIRST, thread.seq`;

/** $1 previous response, $2 organization, $3 now. */
const threadByResponse = statement(
  'thread_by_response',
  threadOf(`
    SELECT r.conversation_id, c.retention_days, c.expires_at, r.id AS head, r.status AS head_status
      FROM conversations.response r JOIN conversations.conversation c ON c.id = r.conversation_id
     WHERE r.id = $1::text AND r.organization_id = $2::text AND c.organization_id = $2::text AND c.expires_at > $3::timestamptz`),
);

/** $1 conversation, $2 organization, $3 now; the head is the latest turn (highest turn_seq of a completed or incomplete response). */
const threadByConversation = statement(
  'thread_by_conversation',
  threadOf(`
    SELECT c.id AS conversation_id, c.retention_days, c.expires_at,
           (SELECT r.id FROM conversations.response r
             WHERE r.conversation_id = c.id AND r.status IN ('completed', 'incomplete')
             ORDER BY r.turn_seq DESC LIMIT 1) AS head, 'completed'::text AS head_status
      FROM conversations.conversation c
     WHERE c.id = $1::text AND c.organization_id = $2::text AND c.expires_at > $3::timestamptz`),
);

interface ThreadResultRow {
  conversation_id: string;
  retention_days: number | null;
  expires_at: Date;
  head: string | null;
  head_status: string | null;
  id: string | null;
  origin: string | null;
  body: StoredItem | null;
  characters: number | null;
  replaces: string[] | null;
  seq: string | null;
}

/**
 * BuildHistory's read in one statement: the organization's previous response (its conversation
 * unexpired) or conversation with its latest turn, then that thread's rows in thread order.
 * Undefined when the id is not the organization's (or expired).
 */
export async function readThread(deps: StoreDeps, query: { organizationId: string; now: Date } & ({ previousResponseId: string } | { conversationId: string })): Promise<ResolvedThread | undefined> {
  const [text, id] = 'previousResponseId' in query ? [threadByResponse, query.previousResponseId] : [threadByConversation, query.conversationId];
  const result = await rows<ThreadResultRow>(poolFor(deps), text, [id, query.organizationId, query.now]);
  const first = result[0];
  if (!first) return undefined;
  const thread: ThreadRow[] = [];
  for (const row of result) {
    if (row.id === null) continue;
    thread.push({ id: row.id, origin: row.origin!, body: row.body!, characters: row.characters!, replaces: row.replaces!, seq: BigInt(row.seq!) });
  }
  return { conversationId: first.conversation_id, retentionDays: first.retention_days, expiresAt: first.expires_at, head: first.head, headStatus: first.head_status, rows: thread };
}

/** $1 conversation, $2 organization, $3 now. */
const conversationExists = statement(
  'conversation_exists',
  `SELECT 1 FROM conversations.conversation WHERE id = $1::text AND organization_id = $2::text AND expires_at > $3::timestamptz`,
);

/** True when the organization has this (unexpired) conversation. */
export async function hasConversation(deps: StoreDeps, organizationId: string, id: string, now: Date): Promise<boolean> {
  return (await rows(poolFor(deps), conversationExists, [id, organizationId, now])).length > 0;
}

// ---------------------------------------------------------------------------------------------
// CompleteTurn

export interface TurnWrite {
  organizationId: string;
  conversationId: string;
  /** Set: the turn creates the conversation (with this retention; null = the organization's). */
  create: { retentionDays: number | null } | null;
  /** The organization's retention, for a conversation without its own (days). */
  organizationRetentionDays: number;
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
}

export interface TurnWritten {
  /** false: no such unexpired conversation of the organization (nothing written). */
  conversationFound: boolean;
  /** The conversation's own retention; null: the organization's. */
  retentionDays: number | null;
  stored: boolean;
  parentFound: boolean;
  /** The thread's totals before the turn. */
  before: ThreadTotals;
  /** The conversation's expiry once stored (null when nothing was stored). */
  expiresAt: Date | null;
}

/** JSON escapes Postgres' jsonb refuses: \u0000, and a surrogate JSON.stringify escaped because it was unpaired. */
const UNSTORABLE_ESCAPE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * JSON for a jsonb column. Requests are refused such text at the edge (refuseUnstorableText); a
 * vendor's answer carrying a NUL or an unpaired surrogate has each replaced with U+FFFD so the
 * answered, billed turn is stored rather than lost.
 */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (!UNSTORABLE_ESCAPE.test(text)) return text;
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? inner.replace(UNSTORABLE_TEXT, '\ufffd') : inner));
}

/** conversations.complete_turn (migration 0004_complete_turn, replaced by 0005_thread_totals and 0006_turn_totals_at_insert): $1 … $17 in its parameter order. */
const completeTurnStatement = statement(
  'complete_turn',
  `SELECT conversation_found, retention_days, stored, parent_found, entries, characters, expires_at
     FROM conversations.complete_turn($1::text, $2::text, $3::text, $4::boolean, $5::int, $6::int, $7::int, $8::bigint, $9::int, $10::bigint,
                                      $11::text, $12::text, $13::boolean, $14::jsonb, $15::jsonb, $16::jsonb, $17::timestamptz)`,
);

/**
 * A turn's writes in one statement, conversations.complete_turn: the conversation row locked
 * (unless the turn creates it), then the thread's totals (the parent's stored ones and the root's items) read
 * after the lock, the checks that the parent is in the conversation and that the thread stays
 * within its limits, and only when both hold the conversation (created, or its retention clock
 * restarted), the response and its items in order. On the pool it is its own transaction (one
 * round trip, committed with it); on a client inside a transaction it joins that one.
 */
export async function writeTurn(db: Queryable, write: TurnWrite): Promise<TurnWritten> {
  const items = write.items.map(({ item, characters, origin }) => ({ id: item.id, type: item.type, origin, body: item, characters, tokens: tokensOf(characters) }));
  const values: unknown[] = [
    write.parentResponseId,
    write.conversationId,
    write.organizationId,
    write.create !== null,
    write.create?.retentionDays ?? null,
    write.organizationRetentionDays,
    write.turn.entries,
    write.turn.characters,
    THREAD_MAX_ENTRIES,
    THREAD_MAX_CHARACTERS,
    write.responseId,
    write.status,
    write.background,
    storableJson(write.body),
    write.stream === null || write.stream === undefined ? null : storableJson(write.stream),
    storableJson(items),
    write.now,
  ];
  const [row] = await rows<{ conversation_found: boolean; retention_days: number | null; stored: boolean; parent_found: boolean; entries: number; characters: string; expires_at: Date | null }>(db, completeTurnStatement, values);
  return {
    conversationFound: row!.conversation_found,
    retentionDays: row!.retention_days,
    stored: row!.stored,
    parentFound: row!.parent_found,
    before: { entries: row!.entries, characters: Number(row!.characters) },
    expiresAt: row!.expires_at,
  };
}

// ---------------------------------------------------------------------------------------------
// GetResponse

export interface ResponseRow {
  body: Record<string, unknown>;
  stream: unknown;
  conversation_id: string;
  parent_response_id: string | null;
  status: string;
  background: boolean;
}

/** $1 response, $2 organization, $3 now. */
const responseById = statement(
  'response_by_id',
  `SELECT r.body, r.stream, r.conversation_id, r.parent_response_id, r.status, r.background
     FROM conversations.response r JOIN conversations.conversation c ON c.id = r.conversation_id
    WHERE r.id = $1::text AND r.organization_id = $2::text AND c.organization_id = $2::text AND c.expires_at > $3::timestamptz`,
);

/** The organization's stored response, its conversation unexpired. */
export async function readResponse(deps: StoreDeps, organizationId: string, responseId: string, now: Date): Promise<ResponseRow | undefined> {
  const [row] = await rows<ResponseRow>(poolFor(deps), responseById, [responseId, organizationId, now]);
  return row;
}

// ---------------------------------------------------------------------------------------------
// ListItems

/**
 * $1 conversation, $2 organization, $3 now, $4 how many rows to read, and with a cursor $5 the
 * `after` item. One row per item of the page, or one row of nulls; every row says whether the
 * conversation was found and whether the cursor is one of its items.
 */
const pageSql = (order: 'asc' | 'desc', cursor: boolean) => `
  WITH
  conversation AS (
    SELECT id FROM conversations.conversation WHERE id = $1::text AND organization_id = $2::text AND expires_at > $3::timestamptz
  ),
  ${cursor ? `anchor AS (SELECT seq FROM conversations.item WHERE id = $5::text AND conversation_id = $1::text),` : ''}
  page AS (
    SELECT i.body, i.seq FROM conversations.item i
     WHERE i.conversation_id = $1::text AND EXISTS (SELECT 1 FROM conversation)
       ${cursor ? `AND i.seq ${order === 'asc' ? '>' : '<'} (SELECT seq FROM anchor)` : ''}
     ORDER BY i.seq ${order}
     LIMIT $4::int
  )
  SELECT EXISTS (SELECT 1 FROM conversation) AS found, ${cursor ? 'EXISTS (SELECT 1 FROM anchor)' : 'true'} AS anchored, page.body
    FROM (SELECT 1) AS one LEFT JOIN page ON true
   ORDER BY page.seq ${order}`;

const pages = {
  asc: statement('items_asc', pageSql('asc', false)),
  desc: statement('items_desc', pageSql('desc', false)),
  ascAfter: statement('items_asc_after', pageSql('asc', true)),
  descAfter: statement('items_desc_after', pageSql('desc', true)),
};

/**
 * A page of the conversation's items in seq order (all threads), `take` rows at most, after the
 * cursor item when given. Undefined: no such conversation; 'bad cursor': `after` is not one of its items.
 */
export async function readItemsPage(deps: StoreDeps, query: { organizationId: string; conversationId: string; now: Date; order: 'asc' | 'desc'; take: number; after?: string }): Promise<StoredItem[] | undefined | 'bad cursor'> {
  const values: unknown[] = [query.conversationId, query.organizationId, query.now, query.take];
  const page = query.after === undefined ? pages[query.order] : query.order === 'asc' ? pages.ascAfter : pages.descAfter;
  if (query.after !== undefined) values.push(query.after);
  const result = await rows<{ found: boolean; anchored: boolean; body: StoredItem | null }>(poolFor(deps), page, values);
  const first = result[0]!;
  if (!first.found) return undefined;
  if (!first.anchored) return 'bad cursor';
  return result.filter((row) => row.body !== null).map((row) => row.body!);
}
