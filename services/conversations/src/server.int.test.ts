import { randomBytes } from 'node:crypto';
import { createConversationsClient, historyAfterTurn, type ConversationsClient, type ThreadHistory } from '@svc/backends';
import { ServiceError } from '@svc/errors';
import { callUnary, insecure, startGrpcServer, type GrpcServer } from '@svc/grpc';
import { loadConversationsProto, type ConversationsServiceClient } from '@svc/protos';
import { ids } from '@svc/ids';
import { createLogger } from '@svc/logger';
import { createPrisma } from './db';
import { conversationsService } from './server';

// ConversationsService over gRPC, through the typed client the edge and the workers use
// (libs/backends conversations-client.ts): two replicas on one database, so what one replica
// stored is read from the other at once; JSON fields and optional fields cross the wire intact;
// spec errors arrive as ServiceError codes.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const ORG = `org_rpc_${RUN}`;
const OTHER = `org_rpc_other_${RUN}`;
const logger = createLogger({ service: 'conversations-test', silent: true });

const replicas: Array<{ server: GrpcServer; prisma: ReturnType<typeof createPrisma>; client: ConversationsClient }> = [];
/** Conversations replica 0 announced as changed (changes.ts), in order. */
const announced: string[] = [];

beforeAll(async () => {
  for (let index = 0; index < 2; index += 1) {
    const prisma = createPrisma(process.env.DATABASE_URL!);
    const changes = index === 0 ? { changed: async (id: string) => void announced.push(id) } : undefined;
    const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [conversationsService({ prisma, logger, ...(changes ? { changes } : {}) })] });
    replicas.push({ server, prisma, client: createConversationsClient({ address: `127.0.0.1:${server.port}`, deadlineMs: 5000 }) });
  }
});

afterAll(async () => {
  await replicas[0]!.prisma.conversation.deleteMany({ where: { organizationId: { in: [ORG, OTHER] } } });
  for (const replica of replicas) {
    replica.client.close();
    await replica.server.shutdown(1000);
    await replica.prisma.$disconnect();
  }
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error.param ? `${error.status} ${error.code}:${error.param}` : `${error.status} ${error.code}`;
    throw error;
  }
  return 'ok';
}

function response(id: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return { id, object: 'response', created_at: 1700000000, status: 'completed', background: false, error: null, model: 'm', output, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 }, metadata: {}, store: true, ...extra };
}

describe('ConversationsService over gRPC', () => {
  it('a turn stored through one replica is read through the other, with stored ids in place of the stream ids', async () => {
    const [a, b] = [replicas[0]!.client, replicas[1]!.client];
    const r1 = ids.response();
    const turn = await a.completeTurn({
      organization_id: ORG,
      response_id: r1,
      organization_retention_days: 30,
      input_items: [{ role: 'user', content: [{ type: 'input_text', text: 'weather in Oslo?' }] }],
      response: response(r1, [{ type: 'function_call', id: `fc_${r1}_0`, call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}', status: 'completed' }]),
      stream: { deltas: [[5, 10]] },
    });
    expect(turn.conversation_id).toMatch(/^conv_[0-9a-f]{32}$/);
    expect(turn.output_ids).toEqual([{ index: 0, previous_id: `fc_${r1}_0`, id: expect.stringMatching(/^fc_[0-9a-f]{32}$/) }]);
    expect(turn.response.output).toEqual([{ type: 'function_call', id: turn.output_ids[0]!.id, call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}', status: 'completed' }]);
    expect(turn).toMatchObject({ delete_after_response: false, thread_entries: 2, expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });

    const stored = await b.getResponse({ organization_id: ORG, response_id: r1 });
    expect(stored).toMatchObject({ conversation_id: turn.conversation_id, parent_response_id: null, status: 'completed', background: false, stream: { deltas: [[5, 10]] } });
    expect(stored.response).toMatchObject({ id: r1, conversation: { id: turn.conversation_id }, tools: [], tool_choice: 'auto', parallel_tool_calls: true, max_output_tokens: null });

    const history = await b.buildHistory({ organization_id: ORG, conversation_id: turn.conversation_id });
    expect(history).toMatchObject({ conversation_id: turn.conversation_id, parent_response_id: r1, thread_entries: 2, history_entries: 2 });
    expect(history.retention_days).toBeUndefined();
    expect(history.items.map((item) => item.type)).toEqual(['message', 'function_call']);

    // The tool result, as the next turn's input, on the other replica.
    const r2 = ids.response();
    const next = await b.completeTurn({
      organization_id: ORG,
      response_id: r2,
      conversation_id: history.conversation_id,
      parent_response_id: history.parent_response_id,
      retention_days: 0, // ignored: the conversation exists
      organization_retention_days: 30,
      input_items: [{ type: 'function_call_output', call_id: 'call_1', output: '{"temp":3}' }],
      response: response(r2, [{ type: 'message', id: `msg_${r2}_0`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'It is 3 °C.', annotations: [] }] }], { previous_response_id: r1 }),
    });
    expect([next.thread_entries, next.delete_after_response]).toEqual([4, false]);
    expect((await a.getResponse({ organization_id: ORG, response_id: r2 })).response.previous_response_id).toBe(r1);

    const listed = await a.listItems({ organization_id: ORG, conversation_id: turn.conversation_id, order: 'desc', limit: 2 });
    expect(listed).toMatchObject({ object: 'list', has_more: true, first_id: next.output_ids[0]!.id, last_id: next.input_item_ids[0] });

    const added = await b.addItems({ organization_id: ORG, conversation_id: turn.conversation_id, items: [{ role: 'user', content: 'thanks' }] });
    expect(added).toMatchObject({ object: 'list', has_more: false, first_id: added.data[0]!.id, last_id: added.data[0]!.id });

    const compacted = await a.storeCompaction({ organization_id: ORG, conversation_id: turn.conversation_id, head_response_id: r2, replaces: history.items.map((item) => item.id), summary: 'asked about Oslo weather' });
    expect(compacted.item).toEqual({ type: 'compaction', id: expect.stringMatching(/^cmp_/), summary: 'asked about Oslo weather' });
    expect(compacted.history.items.map((item) => item.type)).toEqual(['compaction', 'function_call_output', 'message', 'message']);
    expect(await b.buildHistory({ organization_id: ORG, previous_response_id: r2 })).toEqual(compacted.history);

    expect(await b.deleteResponse({ organization_id: ORG, response_id: r2 })).toEqual({ id: r2, object: 'response', deleted: true });
    expect(await codeOf(a.getResponse({ organization_id: ORG, response_id: r2 }))).toBe('404 response_not_found:response_id');
    const conversation = await a.getConversation({ organization_id: ORG, conversation_id: turn.conversation_id });
    expect(conversation.svc.entries).toBe(2);
    expect(await b.deleteConversation({ organization_id: ORG, conversation_id: turn.conversation_id })).toEqual({ id: turn.conversation_id, object: 'conversation.deleted', deleted: true });
    expect(await codeOf(a.getConversation({ organization_id: ORG, conversation_id: turn.conversation_id }))).toBe('404 conversation_not_found:conversation');
  });

  it('the history after a stored turn, composed by the caller (historyAfterTurn), is what BuildHistory returns for it', async () => {
    const [a, b] = [replicas[0]!.client, replicas[1]!.client];
    // A first turn: instructions as a developer item, an image and text; a function call answered.
    const r1 = ids.response();
    const first = await a.completeTurn({
      organization_id: ORG,
      response_id: r1,
      retention_days: 7,
      organization_retention_days: 30,
      input_items: [
        { role: 'developer', content: 'Answer briefly.' },
        { role: 'user', content: [{ type: 'input_text', text: 'What is in this picture, and the weather in Oslo?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' }] },
      ],
      response: response(r1, [
        { type: 'message', id: `msg_${r1}_0`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'A cat. Checking the weather…', annotations: [] }] },
        { type: 'function_call', id: `fc_${r1}_1`, call_id: 'call_w', name: 'weather', arguments: '{"city":"Oslo"}', status: 'completed' },
      ]),
    });
    const afterFirst = historyAfterTurn(undefined, first, 7);
    expect(afterFirst).toEqual(await b.buildHistory({ organization_id: ORG, previous_response_id: r1 }));
    expect(afterFirst.retention_days).toBe(7);

    // The tool's output; then a turn continuing from the composed history again.
    const step = async (parent: ThreadHistory, input: unknown, text: string) => {
      const id = ids.response();
      const done = await b.completeTurn({
        organization_id: ORG,
        response_id: id,
        conversation_id: parent.conversation_id,
        parent_response_id: parent.parent_response_id,
        organization_retention_days: 30,
        input_items: input,
        response: response(id, [{ type: 'message', id: `msg_${id}_0`, status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }], { status: 'incomplete' }),
      });
      const composed = historyAfterTurn(parent, done, undefined);
      expect(composed).toEqual(await a.buildHistory({ organization_id: ORG, previous_response_id: id }));
      return composed;
    };
    const afterTool = await step(afterFirst, [{ type: 'function_call_output', call_id: 'call_w', output: '{"temp":-3}' }], 'It is −3 °C in Oslo');
    // A compaction on the head: the stored history changes (announced), and the next turn continues from the compacted history.
    announced.length = 0;
    const compacted = await a.storeCompaction({ organization_id: ORG, conversation_id: afterTool.conversation_id!, head_response_id: afterTool.parent_response_id, replaces: afterTool.items.slice(0, 3).map((item) => item.id), summary: 'The user sent a cat picture and asked about Oslo.' });
    expect(announced).toEqual([afterTool.conversation_id]);
    const afterCompaction = await step(compacted.history, 'And tomorrow?', 'Colder');
    expect(afterCompaction.items[0]).toMatchObject({ type: 'compaction' });
    await step(afterCompaction, 'Thanks!', 'You are welcome');
  });

  it('every change other than a new turn is announced with its conversation, after it is made', async () => {
    const client = replicas[0]!.client;
    announced.length = 0;
    const created = await client.createConversation({ organization_id: ORG, organization_retention_days: 30 });
    const conversation = created.conversation.id;
    const r1 = ids.response();
    await client.completeTurn({ organization_id: ORG, response_id: r1, conversation_id: conversation, organization_retention_days: 30, input_items: 'hi', response: response(r1, []) });
    await client.updateConversation({ organization_id: ORG, conversation_id: conversation, metadata: { a: 'b' } });
    // A new conversation, a new turn and metadata leave every stored history as it was.
    expect(announced).toEqual([]);
    await client.addItems({ organization_id: ORG, conversation_id: conversation, items: 'more' });
    expect(announced).toEqual([conversation]);
    await client.deleteResponse({ organization_id: ORG, response_id: r1 });
    expect(announced).toEqual([conversation, conversation]);
    await client.deleteConversation({ organization_id: ORG, conversation_id: conversation });
    expect(announced).toEqual([conversation, conversation, conversation]);
    // A refused change announces nothing.
    expect(await codeOf(client.deleteConversation({ organization_id: ORG, conversation_id: conversation }))).toBe('404 conversation_not_found:conversation');
    expect(announced).toHaveLength(3);
  });

  it('conversations: metadata, initial items, retention presence, background turns and errors', async () => {
    const client = replicas[0]!.client;
    const created = await client.createConversation({ organization_id: ORG, metadata: { project: 'x' }, items: 'hello', retention_days: 0, organization_retention_days: 30 });
    expect(created.delete_after_response).toBe(true);
    expect(created.conversation.svc.retention_days).toBe(0);
    const kept = await client.createConversation({ organization_id: ORG, organization_retention_days: 30 });
    expect(kept.conversation.svc.retention_days).toBeUndefined();
    expect(kept.delete_after_response).toBe(false);
    expect((await client.updateConversation({ organization_id: ORG, conversation_id: kept.conversation.id, metadata: { a: 'b' } })).metadata).toEqual({ a: 'b' });

    const queuedId = ids.response();
    await client.completeTurn({ organization_id: ORG, response_id: queuedId, conversation_id: kept.conversation.id, organization_retention_days: 30, input_items: 'later please', response: response(queuedId, [], { status: 'queued', background: true }) });
    expect((await client.getResponse({ organization_id: ORG, response_id: queuedId })).status).toBe('queued');
    const ended = await client.updateResponse({ organization_id: ORG, response_id: queuedId, organization_retention_days: 30, response: response(queuedId, [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done', annotations: [] }] }]) });
    expect(ended).toMatchObject({ updated: true, delete_after_response: false, response: { status: 'completed', background: true } });
    expect(ended.output_ids[0]).toEqual({ index: 0, previous_id: null, id: expect.stringMatching(/^msg_/) });

    expect(await codeOf(client.getConversation({ organization_id: OTHER, conversation_id: kept.conversation.id }))).toBe('404 conversation_not_found:conversation');
    expect(await codeOf(client.buildHistory({ organization_id: ORG, previous_response_id: queuedId, conversation_id: created.conversation.id }))).toBe('404 conversation_not_found:conversation');
    const other = await client.createConversation({ organization_id: ORG, organization_retention_days: 30 });
    expect(await codeOf(client.buildHistory({ organization_id: ORG, previous_response_id: queuedId, conversation_id: other.conversation.id }))).toBe('400 conversation_mismatch:previous_response_id');
    expect(await codeOf(client.createConversation({ organization_id: ORG, metadata: { n: 1 } as never, organization_retention_days: 30 }))).toBe('400 invalid_value:metadata');
    expect(await codeOf(client.addItems({ organization_id: ORG, conversation_id: kept.conversation.id, items: [] }))).toBe('400 missing_field:items');
    expect(await codeOf(client.listItems({ organization_id: ORG, conversation_id: kept.conversation.id, limit: 500 }))).toBe('400 invalid_value:limit');
  });

  it('a caller that forgets the organization\'s retention gets internal_error, not a conversation deleted at once', async () => {
    const proto = loadConversationsProto();
    const raw = new proto.ConversationsService(`127.0.0.1:${replicas[0]!.server.port}`, insecure()) as unknown as ConversationsServiceClient;
    try {
      const call = callUnary(raw.CreateConversation.bind(raw) as never, raw as never, { organization_id: ORG }, { deadlineMs: 5000 }, 'conversations_unavailable');
      expect(await codeOf(call)).toBe('500 internal_error');
    } finally {
      (raw as unknown as { close(): void }).close();
    }
  });

  it('an unreachable service is conversations_unavailable', async () => {
    const dead = createConversationsClient({ address: '127.0.0.1:1', deadlineMs: 300 });
    try {
      expect(await codeOf(dead.getConversation({ organization_id: ORG, conversation_id: ids.conversation() }))).toBe('503 conversations_unavailable');
    } finally {
      dead.close();
    }
  });
});
