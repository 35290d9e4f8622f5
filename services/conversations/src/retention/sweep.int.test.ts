import { randomBytes } from 'node:crypto';
import { createPrisma } from '../db';
import { sweepExpired } from './sweep';

// Real Postgres (svc_test). Every test uses its own organization id and a "now" in 2001, so
// the sweep can only reach the conversations made here; whatever is left is removed in afterAll.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const NOW = new Date('2001-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const hex = () => randomBytes(16).toString('hex');

describe('sweepExpired (real Postgres)', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const organizations: string[] = [];

  afterAll(async () => {
    await prisma.conversation.deleteMany({ where: { organizationId: { in: organizations } } });
    await prisma.$disconnect();
  });

  function organization(label: string): string {
    const id = `org_sweep_${label}_${RUN}`;
    organizations.push(id);
    return id;
  }

  /** A conversation with two items and a stored response; returns its id. */
  async function conversation(organizationId: string, expiresAt: Date): Promise<string> {
    const id = `conv_${hex()}`;
    const responseId = `resp_${hex()}`;
    await prisma.conversation.create({ data: { id, organizationId, expiresAt, createdAt: new Date(expiresAt.getTime() - 30 * 86_400_000) } });
    await prisma.response.create({ data: { id: responseId, organizationId, conversationId: id, status: 'completed', body: { output: [] } } });
    await prisma.item.createMany({
      data: [
        { id: `msg_${hex()}`, conversationId: id, type: 'message', body: { role: 'user', content: 'hi' } },
        { id: `msg_${hex()}`, conversationId: id, responseId, type: 'message', body: { role: 'assistant', content: 'hello' } },
      ],
    });
    return id;
  }

  async function remaining(organizationId: string) {
    const conversations = await prisma.conversation.findMany({ where: { organizationId }, select: { id: true } });
    const items = await prisma.item.findMany({ where: { conversation: { organizationId } }, select: { conversationId: true } });
    const responses = await prisma.response.findMany({ where: { organizationId }, select: { conversationId: true } });
    return {
      conversations: conversations.map((c) => c.id).sort(),
      itemsOf: [...new Set(items.map((i) => i.conversationId))].sort(),
      itemCount: items.length,
      responsesOf: responses.map((r) => r.conversationId).sort(),
    };
  }

  it('deletes only the expired conversations, with their items and responses, in batches until none remain', async () => {
    const org = organization('mixed');
    const expired = [];
    for (let i = 0; i < 5; i += 1) expired.push(await conversation(org, new Date(NOW.getTime() - (i + 1) * MINUTE)));
    const live = [
      await conversation(org, NOW), // expires_at exactly now: not yet before it
      await conversation(org, new Date(NOW.getTime() + MINUTE)),
      await conversation(org, new Date(NOW.getTime() + 365 * 86_400_000)),
    ];
    const expiredIds = new Set(expired);

    expect(await sweepExpired(prisma, NOW, 2)).toBe(5); // batches of 2, 2, 1

    const left = await remaining(org);
    expect(left.conversations).toEqual([...live].sort());
    expect(left.itemsOf).toEqual([...live].sort());
    expect(left.itemCount).toBe(2 * live.length);
    expect(left.responsesOf).toEqual([...live].sort());
    const orphans = await prisma.item.count({ where: { conversationId: { in: [...expiredIds] } } });
    expect(orphans).toBe(0);
    expect(await prisma.response.count({ where: { conversationId: { in: [...expiredIds] } } })).toBe(0);

    // Nothing left to do; a minute later the next two have expired.
    expect(await sweepExpired(prisma, NOW, 2)).toBe(0);
    expect(await sweepExpired(prisma, new Date(NOW.getTime() + MINUTE + 1), 1000)).toBe(2);
    expect((await remaining(org)).conversations).toEqual([live[2]]);
  });

  it('stops after an exactly full last batch once a sweep finds nothing more', async () => {
    const org = organization('full');
    for (let i = 0; i < 4; i += 1) await conversation(org, new Date(NOW.getTime() - 10 * MINUTE));
    expect(await sweepExpired(prisma, NOW, 2)).toBe(4); // 2, 2, then 0
    expect((await remaining(org)).conversations).toEqual([]);
  });

  it('keeps a conversation whose expires_at a new turn moved forward before the sweep', async () => {
    const org = organization('renewed');
    const renewed = await conversation(org, new Date(NOW.getTime() - MINUTE));
    await prisma.conversation.update({ where: { id: renewed }, data: { expiresAt: new Date(NOW.getTime() + 30 * 86_400_000), lastTurnAt: NOW } });
    const gone = await conversation(org, new Date(NOW.getTime() - MINUTE));
    expect(await sweepExpired(prisma, NOW, 1000)).toBe(1);
    const left = await remaining(org);
    expect(left.conversations).toEqual([renewed]);
    expect(left.conversations).not.toContain(gone);
  });

  it('skips a conversation a turn in progress holds locked, and takes it on a later sweep', async () => {
    const org = organization('locked');
    const busy = await conversation(org, new Date(NOW.getTime() - MINUTE));
    const idle = await conversation(org, new Date(NOW.getTime() - MINUTE));
    await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM conversations.conversation WHERE id = ${busy} FOR UPDATE`;
      expect(await sweepExpired(prisma, NOW, 1000)).toBe(1);
    });
    expect((await remaining(org)).conversations).toEqual([busy]);
    expect(await sweepExpired(prisma, NOW, 1000)).toBe(1);
    expect((await remaining(org)).conversations).toEqual([]);
    expect(idle).not.toBe(busy);
  });

  it('refuses a batch size that is not a positive integer', async () => {
    await expect(sweepExpired(prisma, NOW, 0)).rejects.toThrow(RangeError);
    await expect(sweepExpired(prisma, NOW, 1.5)).rejects.toThrow(RangeError);
  });
});
