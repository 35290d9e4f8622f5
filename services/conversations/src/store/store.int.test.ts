import { randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import { createPrisma } from '../db';
import type { StoredItem } from '../domain/items';
import { addItems, createConversation, deleteConversation, getConversation, listItems, updateConversation } from './conversations';
import { threadTotals, type StoreDeps } from './queries';
import { deleteResponse, getResponse } from './responses';
import { buildHistory, completeTurn, storeCompaction, updateResponse, type CompleteTurnInput } from './turns';

// The conversations store against the real Postgres test database (svc_test, migrated): threads
// and branches, history with compaction in place, AddItems, the thread limits, tenancy across two
// organizations, the delete cascade of a turn, items listing, and one-transaction turns.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const ORG_A = `org_store_a_${RUN}`;
const ORG_B = `org_store_b_${RUN}`;
const DAY = 86_400_000;

const prisma = createPrisma(process.env.DATABASE_URL!);
let now = new Date();
const deps: StoreDeps = { prisma, now: () => now };

afterAll(async () => {
  await prisma.conversation.deleteMany({ where: { organizationId: { in: [ORG_A, ORG_B] } } });
  await prisma.$disconnect();
});

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error.param ? `${error.code}:${error.param}` : error.code;
    throw error;
  }
  return 'ok';
}

function responseBody(id: string, answer: string | null, status = 'completed', extra: Record<string, unknown> = {}) {
  return {
    id,
    object: 'response',
    created_at: Math.floor(now.getTime() / 1000),
    status,
    background: false,
    error: null,
    model: 'vendor-1/model-a',
    output: answer === null ? [] : [{ type: 'message', id: `msg_${id}_0`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer, annotations: [] }] }],
    usage: { input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 5 },
    previous_response_id: null,
    conversation: null,
    instructions: null,
    metadata: {},
    store: true,
    max_output_tokens: 4096,
    tools: [{ type: 'function', name: 'f', parameters: {} }],
    tool_choice: 'required',
    parallel_tool_calls: false,
    ...extra,
  };
}

interface Turn {
  org?: string;
  conversation?: string;
  parent?: string;
  input?: unknown;
  answer?: string | null;
  status?: string;
  retention?: number;
  orgRetention?: number;
}

async function turn(options: Turn = {}) {
  const responseId = ids.response();
  const input: CompleteTurnInput = {
    organization_id: options.org ?? ORG_A,
    response_id: responseId,
    conversation_id: options.conversation ?? '',
    parent_response_id: options.parent ?? '',
    organization_retention_days: options.orgRetention ?? 30,
    input_items: options.input ?? `question ${responseId.slice(5, 9)}`,
    response: responseBody(responseId, options.answer === undefined ? `answer ${responseId.slice(5, 9)}` : options.answer, options.status ?? 'completed'),
  };
  if (options.retention !== undefined) input.retention_days = options.retention;
  const result = await completeTurn(deps, input);
  return { ...result, id: responseId };
}

const textOf = (item: StoredItem) => (item.type === 'message' ? item.content.map((part) => ('text' in part ? part.text : '[image]')).join('') : item.type === 'compaction' ? `summary:${item.summary}` : item.type);
const history = async (query: { previous?: string; conversation?: string; org?: string }) =>
  buildHistory(deps, { organization_id: query.org ?? ORG_A, previous_response_id: query.previous ?? '', conversation_id: query.conversation ?? '' });

describe('turns and threads', () => {
  beforeEach(() => {
    now = new Date();
  });

  it('a turn without a conversation creates one, stores its items with stored ids, and is readable at once', async () => {
    const first = await turn({ input: [{ role: 'developer', content: 'be brief' }, { role: 'user', content: 'hi' }], answer: 'hello' });
    expect(first.conversation_id).toMatch(/^conv_[0-9a-f]{32}$/);
    expect(first.output_ids).toEqual([{ index: 0, previous_id: `msg_${first.id}_0`, id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) }]);
    expect(first.input_item_ids).toEqual([expect.stringMatching(/^msg_[0-9a-f]{32}$/), expect.stringMatching(/^msg_[0-9a-f]{32}$/)]);
    expect(first.response.conversation).toEqual({ id: first.conversation_id });
    expect((first.response.output as Array<{ id: string }>)[0]!.id).toBe(first.output_ids[0]!.id);
    expect([first.thread_entries, first.delete_after_response]).toEqual([3, false]);

    const conversation = await getConversation(deps, ORG_A, first.conversation_id);
    expect(conversation).toEqual({
      id: first.conversation_id,
      object: 'conversation',
      created_at: Math.floor(now.getTime() / 1000),
      metadata: {},
      svc: { entries: 3, token_estimate: 4, expires_at: first.expires_at, last_turn_at: expect.any(String) },
    });
    // token_estimate is the conversation's characters / 4, rounded up once: 8 + 2 + 5 = 15 → 4.
    expect(conversation.svc.token_estimate).toBe(4);
    expect(new Date(first.expires_at).getTime()).toBeGreaterThan(now.getTime() + 30 * DAY - 2000);

    const stored = await getResponse(deps, ORG_A, first.id);
    expect(stored.response).toMatchObject({ id: first.id, status: 'completed', conversation: { id: first.conversation_id }, max_output_tokens: null, tools: [], tool_choice: 'auto', parallel_tool_calls: true });
    expect(stored.stored).toMatchObject({ max_output_tokens: 4096, tool_choice: 'required' });
    expect([stored.parent_response_id, stored.status, stored.background]).toEqual(['', 'completed', false]);

    const byResponse = await history({ previous: first.id });
    const byConversation = await history({ conversation: first.conversation_id });
    expect(byResponse).toEqual(byConversation);
    expect(byResponse.items.map(textOf)).toEqual(['be brief', 'hi', 'hello']);
    expect(byResponse.items.map((item) => item.id)).toEqual([...first.input_item_ids, first.output_ids[0]!.id]);
    expect(byResponse).toMatchObject({ conversation_id: first.conversation_id, parent_response_id: first.id, thread_entries: 3, history_entries: 3, thread_token_estimate: 4 });
    expect(byResponse.retention_days).toBeUndefined();
  });

  it('continuing from an older response starts a branch; the conversation continues from the latest completed turn', async () => {
    const r1 = await turn({ input: 'q1', answer: 'a1' });
    const conversation = r1.conversation_id;
    const r2 = await turn({ conversation, parent: r1.id, input: 'q2', answer: 'a2' });
    const r3 = await turn({ conversation, parent: r2.id, input: 'q3', answer: 'a3' });
    const branch = await turn({ conversation, parent: r1.id, input: 'q2b', answer: 'a2b' });

    expect((await history({ previous: r3.id })).items.map(textOf)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3']);
    expect((await history({ previous: branch.id })).items.map(textOf)).toEqual(['q1', 'a1', 'q2b', 'a2b']);
    expect((await history({ previous: r3.id, conversation })).thread_entries).toBe(6);
    // The latest turn is the one completed last, whichever branch it is on.
    expect((await history({ conversation })).parent_response_id).toBe(branch.id);
    expect((await getResponse(deps, ORG_A, branch.id)).parent_response_id).toBe(r1.id);

    // Every thread, in creation order.
    const all = await listItems(deps, { organization_id: ORG_A, conversation_id: conversation, limit: 100 });
    expect(all.data.map(textOf)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3', 'q2b', 'a2b']);
    expect((await getConversation(deps, ORG_A, conversation)).svc.entries).toBe(8);

    // A failed or queued response is not a latest turn; a background response that completes later is.
    const failed = await turn({ conversation, parent: r3.id, status: 'failed', answer: null });
    expect((await history({ conversation })).parent_response_id).toBe(branch.id);
    const queued = await turn({ conversation, parent: r3.id, status: 'queued', answer: null, input: 'background q' });
    expect((await history({ conversation })).parent_response_id).toBe(branch.id);
    expect((await getResponse(deps, ORG_A, queued.id)).status).toBe('queued');
    const done = await updateResponse(deps, { organization_id: ORG_A, response_id: queued.id, response: responseBody(queued.id, 'background a', 'completed', { background: true }), organization_retention_days: 30 });
    expect(done.updated).toBe(true);
    expect(done.output_ids).toEqual([{ index: 0, previous_id: `msg_${queued.id}_0`, id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) }]);
    const latest = await history({ conversation });
    expect(latest.parent_response_id).toBe(queued.id);
    expect(latest.items.map(textOf)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3', 'background q', 'background a']);
    // Already ended: returned as is.
    const again = await updateResponse(deps, { organization_id: ORG_A, response_id: queued.id, response: responseBody(queued.id, null, 'cancelled'), organization_retention_days: 30 });
    expect([again.updated, again.response.status]).toEqual([false, 'completed']);
    expect((await getResponse(deps, ORG_A, failed.id)).status).toBe('failed');
  });

  it('the same-conversation check, unknown and malformed ids, and another organization', async () => {
    const one = await turn();
    const other = await turn();
    expect(await failure(history({ previous: one.id, conversation: other.conversation_id }))).toBe('conversation_mismatch:previous_response_id');
    expect(await failure(history({ previous: one.id, conversation: ids.conversation() }))).toBe('conversation_not_found:conversation');
    expect(await failure(history({ previous: ids.response() }))).toBe('previous_response_not_found:previous_response_id');
    expect(await failure(history({ previous: 'resp_nothex' }))).toBe('previous_response_not_found:previous_response_id');
    expect(await failure(history({ conversation: 'conv_bad' }))).toBe('conversation_not_found:conversation');
    // Organization B sees none of A's ids.
    expect(await failure(history({ org: ORG_B, previous: one.id }))).toBe('previous_response_not_found:previous_response_id');
    expect(await failure(history({ org: ORG_B, conversation: one.conversation_id }))).toBe('conversation_not_found:conversation');
    expect(await failure(getResponse(deps, ORG_B, one.id))).toBe('response_not_found:response_id');
    expect(await failure(getConversation(deps, ORG_B, one.conversation_id))).toBe('conversation_not_found:conversation');
    expect(await failure(listItems(deps, { organization_id: ORG_B, conversation_id: one.conversation_id }))).toBe('conversation_not_found:conversation');
    expect(await failure(addItems(deps, { organization_id: ORG_B, conversation_id: one.conversation_id, items: 'x' }))).toBe('conversation_not_found:conversation');
    expect(await failure(deleteResponse(deps, ORG_B, one.id))).toBe('response_not_found:response_id');
    expect(await failure(deleteConversation(deps, ORG_B, one.conversation_id))).toBe('conversation_not_found:conversation');
    expect(await failure(updateConversation(deps, ORG_B, one.conversation_id, { a: 'b' }))).toBe('conversation_not_found:conversation');
    expect(await failure(turn({ org: ORG_B, conversation: one.conversation_id }))).toBe('conversation_not_found:conversation');
    expect(await failure(turn({ conversation: other.conversation_id, parent: one.id }))).toBe('previous_response_not_found:previous_response_id');
    // A's data is untouched.
    expect((await getConversation(deps, ORG_A, one.conversation_id)).svc.entries).toBe(2);
    // Neither given: nothing to read.
    expect(await history({})).toMatchObject({ conversation_id: '', parent_response_id: '', items: [], thread_entries: 0 });
  });

  it('AddItems attaches after the latest turn; the root holds items stored before any turn', async () => {
    const created = await createConversation(deps, { organization_id: ORG_A, metadata: { topic: 'items' }, items: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'seed' }], organization_retention_days: 30 });
    const conversation = created.conversation.id;
    expect(created.conversation.svc.entries).toBe(2);
    const root = await addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: [{ role: 'user', content: 'more' }] });
    expect(root.map(textOf)).toEqual(['more']);
    expect(await history({ conversation })).toMatchObject({ parent_response_id: '', thread_entries: 3 });

    const r1 = await turn({ conversation, parent: '', input: 'q1', answer: 'a1' });
    expect((await history({ conversation })).items.map(textOf)).toEqual(['sys', 'seed', 'more', 'q1', 'a1']);
    const added = await addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: [{ type: 'function_call_output', call_id: 'call_1', output: 'tool says hi' }, { role: 'user', content: 'after r1' }] });
    expect(added.map((item) => item.id)).toEqual([expect.stringMatching(/^fco_/), expect.stringMatching(/^msg_/)]);
    const next = await history({ conversation });
    expect(next.parent_response_id).toBe(r1.id);
    expect(next.items.map(textOf)).toEqual(['sys', 'seed', 'more', 'q1', 'a1', 'function_call_output', 'after r1']);
    // On r1's node: a turn continuing from r1 has them; a new root thread does not.
    expect((await history({ previous: r1.id })).items).toEqual(next.items);
    const r2 = await turn({ conversation, parent: r1.id, input: 'q2', answer: 'a2' });
    expect((await history({ previous: r2.id })).items.map(textOf).slice(-4)).toEqual(['function_call_output', 'after r1', 'q2', 'a2']);
    const fresh = await turn({ conversation, parent: '', input: 'other root', answer: 'x' });
    expect((await history({ previous: fresh.id })).items.map(textOf)).toEqual(['sys', 'seed', 'more', 'other root', 'x']);

    expect(await failure(addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: [] }))).toBe('missing_field:items');
    expect(await failure(addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: [{ role: 'user' }] }))).toBe('missing_field:items[0].content');
  });

  it('a compaction item stands in place of what it replaced, for every turn through its head', async () => {
    const r1 = await turn({ input: 'q1', answer: 'a1' });
    const conversation = r1.conversation_id;
    const r2 = await turn({ conversation, parent: r1.id, input: 'q2', answer: 'a2' });
    const r3 = await turn({ conversation, parent: r2.id, input: 'q3', answer: 'a3' });
    const before = await history({ previous: r3.id });
    const [q1, a1, q2] = before.items;
    const compacted = await storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r3.id, replaces: [q1!.id, a1!.id, q2!.id], summary: 'the user asked q1 and q2' });
    expect(compacted.item).toEqual({ type: 'compaction', id: expect.stringMatching(/^cmp_[0-9a-f]{32}$/), summary: 'the user asked q1 and q2' });
    expect(compacted.history.items.map(textOf)).toEqual(['summary:the user asked q1 and q2', 'a2', 'q3', 'a3']);
    expect(compacted.history).toMatchObject({ thread_entries: 7, history_entries: 4, parent_response_id: r3.id });
    expect(await history({ previous: r3.id })).toEqual(compacted.history);

    const r4 = await turn({ conversation, parent: r3.id, input: 'q4', answer: 'a4' });
    const later = await history({ conversation });
    expect(later.parent_response_id).toBe(r4.id);
    expect(later.items.map(textOf)).toEqual(['summary:the user asked q1 and q2', 'a2', 'q3', 'a3', 'q4', 'a4']);
    expect(later.thread_entries).toBe(9);
    expect(later.history_token_estimate).toBeLessThan(later.thread_token_estimate);
    // A branch from before the head does not see it.
    expect((await history({ previous: r2.id })).items.map(textOf)).toEqual(['q1', 'a1', 'q2', 'a2']);
    // A summary of a summary.
    const again = await storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r4.id, replaces: [compacted.item.id, later.items[1]!.id], summary: 'all before q3' });
    expect(again.history.items.map(textOf)).toEqual(['summary:all before q3', 'q3', 'a3', 'q4', 'a4']);
    // Compaction items are listed with the rest, and usable as a cursor.
    const listed = await listItems(deps, { organization_id: ORG_A, conversation_id: conversation, limit: 100 });
    expect(listed.data.map(textOf).filter((text) => text.startsWith('summary:'))).toEqual(['summary:the user asked q1 and q2', 'summary:all before q3']);
    const afterCompaction = await listItems(deps, { organization_id: ORG_A, conversation_id: conversation, after: compacted.item.id });
    expect(afterCompaction.data.map(textOf)).toEqual(['q4', 'a4', 'summary:all before q3']);

    expect(await failure(storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r4.id, replaces: [q1!.id], summary: 's' }))).toBe('invalid_value:replaces');
    expect(await failure(storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r4.id, replaces: [later.items[2]!.id, later.items[4]!.id], summary: 's' }))).toBe('invalid_value:replaces');
    expect(await failure(storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r4.id, replaces: [later.items[2]!.id], summary: '' }))).toBe('missing_field:summary');
    expect(await failure(storeCompaction(deps, { organization_id: ORG_B, conversation_id: conversation, head_response_id: r4.id, replaces: [later.items[2]!.id], summary: 's' }))).toBe('conversation_not_found:conversation');
  });

  it('a thread holds at most 4000 entries or 2,000,000 estimated tokens; other threads are not limited by it', async () => {
    const big = Array.from({ length: 3998 }, (_, index) => ({ role: 'user', content: `m${index}` }));
    const r1 = await turn({ input: big, answer: 'a' });
    expect(r1.thread_entries).toBe(3999);
    const conversation = r1.conversation_id;
    // One multi-row insert keeps the items' order.
    expect((await history({ previous: r1.id })).items.map(textOf)).toEqual([...big.map((item) => item.content), 'a']);
    const r2 = await turn({ conversation, parent: r1.id, input: [], answer: 'exactly at the limit' });
    expect(r2.thread_entries).toBe(4000);
    const entries = await prisma.item.count({ where: { conversationId: conversation } });
    const expiresAt = (await getConversation(deps, ORG_A, conversation)).svc.expires_at;

    now = new Date(now.getTime() + 60_000);
    expect(await failure(turn({ conversation, parent: r2.id, input: 'one more' }))).toBe('conversation_too_large');
    expect(await failure(addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: 'one more' }))).toBe('conversation_too_large');
    expect(await failure(storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r2.id, replaces: [(await history({ previous: r2.id })).items[0]!.id], summary: 's' }))).toBe('conversation_too_large');
    // Nothing of the refused turns was stored, and the clock did not move.
    expect(await prisma.item.count({ where: { conversationId: conversation } })).toBe(entries);
    expect((await getConversation(deps, ORG_A, conversation)).svc.expires_at).toBe(expiresAt);
    // A new thread from the root of the same conversation is small.
    expect((await turn({ conversation, parent: '', input: 'fresh start' })).thread_entries).toBe(2);

    // Tokens: 2,000,000 tokens are 8,000,000 characters.
    const tooLong = 'x'.repeat(8_000_000 - 1);
    expect(await failure(turn({ input: tooLong, answer: 'ab' }))).toBe('conversation_too_large');
    const fits = await turn({ input: tooLong, answer: 'a' });
    expect(fits.thread_token_estimate).toBe(2_000_000);
    expect(await failure(createConversation(deps, { organization_id: ORG_A, items: [tooLong, 'ab'].map((content) => ({ role: 'user', content })), organization_retention_days: 30 }))).toBe('conversation_too_large');
  }, 60_000);

  it('turns racing on one thread are serialized by the conversation row: at the limit exactly one is stored', async () => {
    const big = Array.from({ length: 3996 }, (_, index) => ({ role: 'user', content: `m${index}` }));
    const r1 = await turn({ input: big, answer: 'a' });
    const conversation = r1.conversation_id;
    // 3997 entries. A turn continuing r1 and AddItems (two entries each, attached after the latest
    // turn) all extend the same thread: each fits alone, no two together.
    const raced = await Promise.allSettled([
      turn({ conversation, parent: r1.id, input: 'racing turn', answer: 'b' }),
      ...Array.from({ length: 4 }, (_, index) => addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: [`added ${index}`, `added ${index}b`].map((content) => ({ role: 'user', content })) })),
    ]);
    const stored = raced.filter((outcome) => outcome.status === 'fulfilled');
    expect(stored).toHaveLength(1);
    for (const outcome of raced) if (outcome.status === 'rejected') expect((outcome.reason as ServiceError).code).toBe('conversation_too_large');
    expect(await prisma.item.count({ where: { conversationId: conversation } })).toBe(3999);
  }, 60_000);

  it('every response keeps its thread\'s totals: items stored later on a node count for every response below it', async () => {
    // The thread of each response, walked from it to the root: what the stored totals must equal.
    const walked = async (conversation: string, head: string) => {
      const [row] = await prisma.$queryRaw<Array<{ entries: number; characters: bigint }>>`
        WITH RECURSIVE chain AS (
          SELECT id, parent_response_id FROM conversations.response WHERE id = ${head}
          UNION ALL
          SELECT r.id, r.parent_response_id FROM conversations.response r JOIN chain ON r.id = chain.parent_response_id
        )
        SELECT count(*)::int AS entries, COALESCE(sum(i.characters), 0)::bigint AS characters FROM conversations.item i
         WHERE i.response_id IN (SELECT id FROM chain) OR (i.conversation_id = ${conversation} AND i.response_id IS NULL)`;
      return { entries: row!.entries, characters: Number(row!.characters) };
    };
    const created = await createConversation(deps, { organization_id: ORG_A, items: [{ role: 'user', content: 'seed at the root' }], organization_retention_days: 30 });
    const conversation = created.conversation.id;
    // Queued and failed responses are never the latest turn, so AddItems lands on r2 and must count
    // for the queued response below it and the failed one below that; the queued one's output,
    // stored when it completes, counts for the failed one too.
    const r1 = await turn({ conversation, input: 'q1', answer: 'a1' });
    const branch = await turn({ conversation, parent: r1.id, input: 'a branch', answer: 'b' });
    const r2 = await turn({ conversation, parent: r1.id, input: 'q2', answer: 'a2' });
    const queued = await turn({ conversation, parent: r2.id, status: 'queued', answer: null, input: 'background q' });
    const failed = await turn({ conversation, parent: queued.id, status: 'failed', answer: null, input: 'failed q' });
    await addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: ['added on the latest turn', 'and another'].map((content) => ({ role: 'user', content })) });
    await updateResponse(deps, { organization_id: ORG_A, response_id: queued.id, response: responseBody(queued.id, 'the background answer', 'completed', { background: true }), organization_retention_days: 30 });
    const below = await turn({ conversation, parent: queued.id, input: 'after the background one', answer: 'x' });
    const before = await history({ conversation });
    expect(before.parent_response_id).toBe(below.id);
    await storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: below.id, replaces: [before.items[1]!.id, before.items[2]!.id], summary: 'q1 and a1' });

    for (const { id } of [r1, branch, r2, queued, failed, below]) {
      const totals = await threadTotals(prisma, conversation, id);
      expect({ id, ...totals }).toEqual({ id, ...(await walked(conversation, id)) });
      expect((await history({ previous: id })).thread_entries).toBe(totals.entries);
    }
    // root 1, r1 2, r2 2, added 2, the queued turn's input and output 2, then the failed turn's input 1, or
    // the turn after it 2 and the summary 1.
    expect((await threadTotals(prisma, conversation, failed.id)).entries).toBe(10);
    expect((await threadTotals(prisma, conversation, below.id)).entries).toBe(12);
    expect((await threadTotals(prisma, conversation, branch.id)).entries).toBe(5);
    const root = await prisma.item.aggregate({ where: { conversationId: conversation, responseId: null }, _count: true, _sum: { characters: true } });
    expect(await threadTotals(prisma, conversation, null)).toEqual({ entries: 1, characters: root._sum.characters });
    // A head that is not a node of the conversation counts only the root.
    expect(await threadTotals(prisma, conversation, ids.response())).toEqual({ entries: 1, characters: root._sum.characters });
    // A turn's limit check reads the same totals.
    expect((await turn({ conversation, parent: below.id, input: 'next', answer: 'y' })).thread_entries).toBe((await walked(conversation, below.id)).entries + 2);
  });

  it('deleting a response removes its turn and every turn after it on its threads', async () => {
    const r1 = await turn({ input: 'q1', answer: 'a1' });
    const conversation = r1.conversation_id;
    const r2 = await turn({ conversation, parent: r1.id, input: 'q2', answer: 'a2' });
    const r3 = await turn({ conversation, parent: r2.id, input: 'q3', answer: 'a3' });
    const r3b = await turn({ conversation, parent: r2.id, input: 'q3b', answer: 'a3b' });
    await addItems(deps, { organization_id: ORG_A, conversation_id: conversation, items: 'added after r3b' });
    await storeCompaction(deps, { organization_id: ORG_A, conversation_id: conversation, head_response_id: r3.id, replaces: [r1.input_item_ids[0]!], summary: 's' });

    expect(await deleteResponse(deps, ORG_A, r2.id)).toEqual({ id: r2.id, deleted: true, responses_deleted: 3, conversation_id: conversation });
    for (const gone of [r2, r3, r3b]) expect(await failure(getResponse(deps, ORG_A, gone.id))).toBe('response_not_found:response_id');
    expect((await getResponse(deps, ORG_A, r1.id)).status).toBe('completed');
    const listed = await listItems(deps, { organization_id: ORG_A, conversation_id: conversation, limit: 100 });
    expect(listed.data.map(textOf)).toEqual(['q1', 'a1']);
    expect(await history({ conversation })).toMatchObject({ parent_response_id: r1.id, thread_entries: 2 });
    expect(await failure(history({ previous: r3.id }))).toBe('previous_response_not_found:previous_response_id');
    expect(await failure(deleteResponse(deps, ORG_A, r2.id))).toBe('response_not_found:response_id');
    // The conversation goes on from r1.
    expect((await turn({ conversation, parent: r1.id })).thread_entries).toBe(4);
  });

  it('lists items with after, order and limit across all threads', async () => {
    const created = await createConversation(deps, { organization_id: ORG_A, items: ['i0', 'i1', 'i2'].map((content) => ({ role: 'user', content })), organization_retention_days: 30 });
    const conversation = created.conversation.id;
    const r1 = await turn({ conversation, input: 'i3', answer: 'i4' });
    await turn({ conversation, parent: '', input: 'i5', answer: 'i6' });
    expect(r1.thread_entries).toBe(5);
    const list = (query: { limit?: number; after?: string; order?: 'asc' | 'desc' }) => listItems(deps, { organization_id: ORG_A, conversation_id: conversation, ...query });

    const page1 = await list({ limit: 3 });
    expect([page1.object, page1.data.map(textOf), page1.has_more]).toEqual(['list', ['i0', 'i1', 'i2'], true]);
    expect([page1.first_id, page1.last_id]).toEqual([page1.data[0]!.id, page1.data[2]!.id]);
    const page2 = await list({ limit: 3, after: page1.last_id! });
    expect([page2.data.map(textOf), page2.has_more]).toEqual([['i3', 'i4', 'i5'], true]);
    const page3 = await list({ limit: 3, after: page2.last_id! });
    expect([page3.data.map(textOf), page3.has_more]).toEqual([['i6'], false]);
    const empty = await list({ after: page3.last_id! });
    expect([empty.data, empty.has_more, empty.first_id, empty.last_id]).toEqual([[], false, null, null]);

    const desc = await list({ order: 'desc', limit: 4 });
    expect([desc.data.map(textOf), desc.has_more]).toEqual([['i6', 'i5', 'i4', 'i3'], true]);
    expect((await list({ order: 'desc', after: desc.last_id! })).data.map(textOf)).toEqual(['i2', 'i1', 'i0']);
    expect((await list({})).data).toHaveLength(7);

    expect(await failure(list({ limit: 101 }))).toBe('invalid_value:limit');
    expect(await failure(list({ limit: -1 }))).toBe('invalid_value:limit');
    expect(await failure(list({ order: 'sideways' as 'asc' }))).toBe('invalid_value:order');
    expect(await failure(list({ after: ids.message() }))).toBe('invalid_value:after');
    expect(await failure(list({ after: 'nonsense' }))).toBe('invalid_value:after');
    const foreign = await turn();
    expect(await failure(list({ after: foreign.input_item_ids[0]! }))).toBe('invalid_value:after');
  });

  it('a turn is stored in one transaction: a failure before commit leaves nothing', async () => {
    const failing: StoreDeps = { ...deps, beforeCommit: () => Promise.reject(new Error('killed mid-turn')) };
    const responseId = ids.response();
    const conversationId = ids.conversation();
    const input: CompleteTurnInput = { organization_id: ORG_A, response_id: responseId, new_conversation_id: conversationId, organization_retention_days: 30, input_items: 'hello', response: responseBody(responseId, 'world') };
    await expect(completeTurn(failing, input)).rejects.toThrow('killed mid-turn');
    expect(await prisma.conversation.count({ where: { id: conversationId } })).toBe(0);
    expect(await prisma.response.count({ where: { id: responseId } })).toBe(0);
    expect(await prisma.item.count({ where: { conversationId } })).toBe(0);
    // The same turn goes through afterwards, with the id the caller chose.
    expect((await completeTurn(deps, input)).conversation_id).toBe(conversationId);

    // On an existing conversation: no response, no items, the clock unchanged.
    const before = await getConversation(deps, ORG_A, conversationId);
    now = new Date(now.getTime() + 5 * DAY);
    const next = ids.response();
    await expect(completeTurn(failing, { ...input, response_id: next, conversation_id: conversationId, parent_response_id: responseId, response: responseBody(next, 'again') })).rejects.toThrow('killed mid-turn');
    expect(await prisma.response.count({ where: { id: next } })).toBe(0);
    expect(await getConversation(deps, ORG_A, conversationId)).toEqual(before);
    await expect(addItems(failing, { organization_id: ORG_A, conversation_id: conversationId, items: 'x' })).rejects.toThrow('killed mid-turn');
    await expect(updateResponse(failing, { organization_id: ORG_A, response_id: responseId, response: responseBody(responseId, 'x'), organization_retention_days: 30 })).resolves.toMatchObject({ updated: false });
    expect(await getConversation(deps, ORG_A, conversationId)).toEqual(before);
  });
});

describe('conversations and retention', () => {
  beforeEach(() => {
    now = new Date();
  });

  it('create, read, replace metadata, delete', async () => {
    const created = await createConversation(deps, { organization_id: ORG_A, metadata: { topic: 'demo' }, retention_days: 7, organization_retention_days: 30 });
    const id = created.conversation.id;
    expect(created).toEqual({
      conversation: {
        id,
        object: 'conversation',
        created_at: Math.floor(now.getTime() / 1000),
        metadata: { topic: 'demo' },
        svc: { entries: 0, token_estimate: 0, expires_at: new Date(now.getTime() + 7 * DAY).toISOString().slice(0, 19) + 'Z', last_turn_at: now.toISOString().slice(0, 19) + 'Z', retention_days: 7 },
      },
      delete_after_response: false,
    });
    expect(await getConversation(deps, ORG_A, id)).toEqual(created.conversation);
    expect((await updateConversation(deps, ORG_A, id, { other: 'x' })).metadata).toEqual({ other: 'x' });
    expect((await updateConversation(deps, ORG_A, id, null)).metadata).toEqual({});
    expect(await failure(updateConversation(deps, ORG_A, id, { n: 1 }))).toBe('invalid_value:metadata');
    expect(await failure(createConversation(deps, { organization_id: ORG_A, retention_days: 366, organization_retention_days: 30 }))).toBe('invalid_value:svc.retention_days');
    expect(await failure(createConversation(deps, { organization_id: ORG_A, items: [{ type: 'function_call', name: 'f' }], organization_retention_days: 30 }))).toBe('missing_field:items[0].call_id');

    const r1 = await turn({ conversation: id });
    expect(await deleteConversation(deps, ORG_A, id)).toEqual({ id, deleted: true });
    expect(await failure(getConversation(deps, ORG_A, id))).toBe('conversation_not_found:conversation');
    expect(await failure(getResponse(deps, ORG_A, r1.id))).toBe('response_not_found:response_id');
    expect(await prisma.item.count({ where: { conversationId: id } })).toBe(0);
    expect(await failure(deleteConversation(deps, ORG_A, id))).toBe('conversation_not_found:conversation');
  });

  it('every turn restarts the retention clock with the conversation\'s own retention, else the organization\'s', async () => {
    const own = await turn({ retention: 3, orgRetention: 30 });
    expect(new Date(own.expires_at).getTime()).toBe(Math.floor((now.getTime() + 3 * DAY) / 1000) * 1000);
    expect((await getConversation(deps, ORG_A, own.conversation_id)).svc.retention_days).toBe(3);
    expect((await history({ conversation: own.conversation_id })).retention_days).toBe(3);

    now = new Date(now.getTime() + 2 * DAY);
    const next = await turn({ conversation: own.conversation_id, parent: own.id, retention: 100, orgRetention: 30 });
    expect(new Date(next.expires_at).getTime()).toBe(Math.floor((now.getTime() + 3 * DAY) / 1000) * 1000);
    const conversation = await getConversation(deps, ORG_A, own.conversation_id);
    expect(conversation.svc.last_turn_at).toBe(now.toISOString().slice(0, 19) + 'Z');

    const orgDefault = await turn({ orgRetention: 10 });
    expect((await getConversation(deps, ORG_A, orgDefault.conversation_id)).svc.retention_days).toBeUndefined();
    now = new Date(now.getTime() + DAY);
    const continued = await turn({ conversation: orgDefault.conversation_id, parent: orgDefault.id, orgRetention: 20 });
    expect(new Date(continued.expires_at).getTime()).toBe(Math.floor((now.getTime() + 20 * DAY) / 1000) * 1000);

    // Past expires_at a conversation reads as gone, before the sweep deletes it.
    now = new Date(now.getTime() + 21 * DAY);
    expect(await failure(getConversation(deps, ORG_A, orgDefault.conversation_id))).toBe('conversation_not_found:conversation');
    expect(await failure(getResponse(deps, ORG_A, continued.id))).toBe('response_not_found:response_id');
    expect(await failure(history({ previous: continued.id }))).toBe('previous_response_not_found:previous_response_id');
  });

  it('retention 0: the conversation reads as gone once the turn returned, and DeleteConversation removes it', async () => {
    const zero = await turn({ retention: 0 });
    expect(zero.delete_after_response).toBe(true);
    expect(await failure(getConversation(deps, ORG_A, zero.conversation_id))).toBe('conversation_not_found:conversation');
    expect(await failure(getResponse(deps, ORG_A, zero.id))).toBe('response_not_found:response_id');
    expect(await prisma.conversation.count({ where: { id: zero.conversation_id } })).toBe(1);
    expect(await failure(deleteConversation(deps, ORG_A, zero.conversation_id))).toBe('conversation_not_found:conversation');
    expect(await prisma.conversation.count({ where: { id: zero.conversation_id } })).toBe(0);

    const orgZero = await turn({ orgRetention: 0 });
    expect(orgZero.delete_after_response).toBe(true);
    const created = await createConversation(deps, { organization_id: ORG_A, retention_days: 0, organization_retention_days: 30 });
    expect(created.delete_after_response).toBe(true);
    expect(created.conversation.svc.retention_days).toBe(0);
  });
});
