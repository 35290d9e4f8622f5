import { randomBytes } from 'node:crypto';
import { createPrisma } from './db';
import { Prisma } from './generated/prisma/client';

// Drift check between prisma/schema.prisma (the generated client) and the committed SQL
// migration applied to svc_test: every model is created with every field set, read back,
// updated and deleted. A column missing, extra, misnamed or of another type fails here.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const at = (iso: string) => new Date(iso);

describe('conversations Prisma schema matches the migrated database', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  afterAll(() => prisma.$disconnect());

  /** The row as Postgres stores it: one key per column. */
  async function columns(table: string, id: string): Promise<string[]> {
    const rows = await prisma.$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>(`SELECT row_to_json(t) AS row FROM conversations.${table} t WHERE id = $1`, id);
    expect(rows).toHaveLength(1);
    return Object.keys(rows[0]!.row).sort();
  }

  it('covers every model', () => {
    expect(Object.values(Prisma.ModelName).sort()).toEqual(['Conversation', 'Item', 'Response']);
  });

  it('creates, reads, updates and deletes one row of every model', async () => {
    const conversation = {
      id: `conv_drift_${RUN}`,
      organizationId: `org_drift_${RUN}`,
      metadata: { topic: 'drift', nested: { n: 1, list: [true, null, 'x'] } },
      retentionDays: 14,
      expiresAt: at('2030-01-01T00:00:00.001Z'),
      lastTurnAt: at('2025-01-01T00:00:00.002Z'),
      createdAt: at('2025-01-01T00:00:00.003Z'),
    };
    const parent = {
      id: `resp_drift_parent_${RUN}`,
      organizationId: conversation.organizationId,
      conversationId: conversation.id,
      parentResponseId: null,
      status: 'queued',
      background: false,
      body: {},
      turnSeq: 1n,
      stream: null,
      chainEntries: 0,
      chainCharacters: 0n,
      createdAt: at('2025-01-01T00:00:00.000Z'),
    };
    const response = {
      id: `resp_drift_${RUN}`,
      organizationId: conversation.organizationId,
      conversationId: conversation.id,
      parentResponseId: parent.id,
      status: 'completed',
      background: true,
      body: { output: [{ type: 'message', content: 'hi' }], usage: { total_tokens: 12 } },
      stream: { deltas: [[2, 3]] },
      chainEntries: 3,
      chainCharacters: 4_000_000_000n,
      createdAt: at('2025-01-01T00:00:00.004Z'),
    };
    const item = {
      id: `msg_drift_${RUN}`,
      conversationId: conversation.id,
      responseId: response.id,
      type: 'message',
      origin: 'output',
      body: { role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
      tokenEstimate: 42,
      characters: 167,
      replaces: ['msg_a', 'fc_b'],
      createdAt: at('2025-01-01T00:00:00.005Z'),
    };
    // The rows above set every scalar field of every model (an item's seq and a response's
    // turn_seq come from their sequences; the parent sets turn_seq itself).
    expect(Object.keys(conversation).sort()).toEqual(Object.values(Prisma.ConversationScalarFieldEnum).sort());
    expect([...Object.keys(item), 'seq'].sort()).toEqual(Object.values(Prisma.ItemScalarFieldEnum).sort());
    expect([...Object.keys(response), 'turnSeq'].sort()).toEqual(Object.values(Prisma.ResponseScalarFieldEnum).sort());
    expect(Object.keys(parent).sort()).toEqual(Object.values(Prisma.ResponseScalarFieldEnum).sort());

    try {
      // Create
      expect(await prisma.conversation.create({ data: conversation })).toEqual(conversation);
      expect(await prisma.response.create({ data: parent })).toEqual(parent);
      const createdResponse = await prisma.response.create({ data: response });
      expect(createdResponse).toEqual({ ...response, turnSeq: expect.any(BigInt) });
      const createdItem = await prisma.item.create({ data: item });
      expect(createdItem).toEqual({ ...item, seq: expect.any(BigInt) });
      expect(createdItem.seq > 0n).toBe(true);
      const next = await prisma.item.create({ data: { id: `msg_drift_next_${RUN}`, conversationId: conversation.id, type: 'function_call', body: {} } });
      expect(next.seq > createdItem.seq).toBe(true);
      expect(next.responseId).toBeNull();
      expect(next.tokenEstimate).toBe(0);
      expect([next.origin, next.characters, next.replaces]).toEqual(['input', 0, []]);

      // Read (and each table has exactly the columns the model maps). The item stored on the
      // response added itself to its thread totals (trigger item_chain_totals).
      expect(await prisma.conversation.findUnique({ where: { id: conversation.id } })).toEqual(conversation);
      const withItem = { ...createdResponse, chainEntries: 4, chainCharacters: 4_000_000_167n };
      expect(await prisma.response.findUnique({ where: { id: response.id } })).toEqual(withItem);
      expect(await prisma.item.findUnique({ where: { id: item.id } })).toEqual(createdItem);
      const withChildren = await prisma.conversation.findUniqueOrThrow({ where: { id: conversation.id }, include: { items: { orderBy: { seq: 'asc' } }, responses: true } });
      expect(withChildren.items.map((row) => row.id)).toEqual([item.id, next.id]);
      expect(withChildren.responses.map((row) => row.id).sort()).toEqual([response.id, parent.id].sort());
      const withThread = await prisma.response.findUniqueOrThrow({ where: { id: parent.id }, include: { children: true, items: true } });
      expect(withThread.children).toEqual([withItem]);
      expect(withThread.items).toEqual([]);
      expect(await columns('conversation', conversation.id)).toEqual(['created_at', 'expires_at', 'id', 'last_turn_at', 'metadata', 'organization_id', 'retention_days']);
      expect(await columns('item', item.id)).toEqual(['body', 'characters', 'conversation_id', 'created_at', 'id', 'origin', 'replaces', 'response_id', 'seq', 'token_estimate', 'type']);
      expect(await columns('response', response.id)).toEqual(['background', 'body', 'chain_characters', 'chain_entries', 'conversation_id', 'created_at', 'id', 'organization_id', 'parent_response_id', 'status', 'stream', 'turn_seq']);

      // Update
      const updatedConversation = await prisma.conversation.update({ where: { id: conversation.id }, data: { metadata: {}, retentionDays: null, lastTurnAt: at('2025-06-01T00:00:00.000Z') } });
      expect([updatedConversation.metadata, updatedConversation.retentionDays, updatedConversation.lastTurnAt]).toEqual([{}, null, at('2025-06-01T00:00:00.000Z')]);
      const updatedResponse = await prisma.response.update({ where: { id: response.id }, data: { status: 'cancelled', parentResponseId: null, body: [1, 2], stream: Prisma.DbNull } });
      expect([updatedResponse.status, updatedResponse.parentResponseId, updatedResponse.body, updatedResponse.stream]).toEqual(['cancelled', null, [1, 2], null]);
      const updatedItem = await prisma.item.update({ where: { id: item.id }, data: { tokenEstimate: 7, body: 'plain', origin: 'added', characters: 3, replaces: [] } });
      expect([updatedItem.tokenEstimate, updatedItem.body, updatedItem.seq, updatedItem.origin, updatedItem.characters, updatedItem.replaces]).toEqual([7, 'plain', createdItem.seq, 'added', 3, []]);

      // A response's items and its descendants go with it (ON DELETE CASCADE).
      await prisma.response.update({ where: { id: response.id }, data: { parentResponseId: parent.id } });
      await prisma.response.delete({ where: { id: parent.id } });
      expect(await prisma.response.findUnique({ where: { id: response.id } })).toBeNull();
      expect(await prisma.item.findUnique({ where: { id: item.id } })).toBeNull();

      // Delete: items and responses go with their conversation (ON DELETE CASCADE).
      await prisma.item.delete({ where: { id: next.id } });
      expect(await prisma.item.findUnique({ where: { id: next.id } })).toBeNull();
      await prisma.conversation.delete({ where: { id: conversation.id } });
      expect(await prisma.conversation.findUnique({ where: { id: conversation.id } })).toBeNull();
      expect(await prisma.item.count({ where: { conversationId: conversation.id } })).toBe(0);
      expect(await prisma.response.count({ where: { conversationId: conversation.id } })).toBe(0);
    } finally {
      await prisma.conversation.deleteMany({ where: { id: conversation.id } });
    }
  });

  it('an item or response cannot point at a missing conversation or response', async () => {
    await expect(prisma.item.create({ data: { id: `msg_drift_orphan_${RUN}`, conversationId: `conv_missing_${RUN}`, type: 'message', body: {} } })).rejects.toThrow(/item_conversation_id_fkey/);
    await expect(prisma.response.create({ data: { id: `resp_drift_orphan_${RUN}`, organizationId: 'org_x', conversationId: `conv_missing_${RUN}`, status: 'queued', body: {} } })).rejects.toThrow(/response_conversation_id_fkey/);
    const id = `conv_drift_fk_${RUN}`;
    await prisma.conversation.create({ data: { id, organizationId: 'org_x', expiresAt: at('2030-01-01T00:00:00Z') } });
    try {
      await expect(prisma.item.create({ data: { id: `msg_drift_orphan2_${RUN}`, conversationId: id, responseId: `resp_missing_${RUN}`, type: 'message', body: {} } })).rejects.toThrow(/item_response_id_fkey/);
      await expect(prisma.response.create({ data: { id: `resp_drift_orphan2_${RUN}`, organizationId: 'org_x', conversationId: id, parentResponseId: `resp_missing_${RUN}`, status: 'queued', body: {} } })).rejects.toThrow(/response_parent_response_id_fkey/);
    } finally {
      await prisma.conversation.deleteMany({ where: { id } });
    }
  });
});
