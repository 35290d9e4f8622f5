import OpenAI from 'openai';
import { fleetState, newOrganization } from '../support/fleet-state';

/**
 * Compaction (spec: Compaction) with a small-context model: vendor-4/atlas-3.1-8b has a 131072
 * token window. A conversation is filled with stored items (no turns), then turns run on that
 * model. Summaries are written by the workers (conversation.compact).
 */
const SMALL = 'vendor-4/atlas-3.1-8b';
type Svc = Record<string, unknown>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;

/** `count` user notes of `chars` characters each (about chars/4 tokens each). */
const notes = (count: number, chars: number) => Array.from({ length: count }, (_, index) => ({ type: 'message' as const, role: 'user' as const, content: `Note ${index}: ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars)}` }));

describe('compaction on the workers', () => {
  const state = fleetState();
  // Long histories: an organization of its own, with room in the key's token bucket.
  const own = newOrganization({ credit: '500000000', keyFlags: ['--tpm', '100000000'] });
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: own.apiKey, maxRetries: 0, timeout: 120_000 });

  it('history over the window: the oldest part is summarized, stored as a compaction item, and the turn continues', async () => {
    const conversation = await client.conversations.create({ items: notes(30, 20_000) });
    const response = await client.responses.create({ model: SMALL, input: 'What were the notes about?', conversation: conversation.id } as never);
    expect(response.status).toBe('completed');
    expect(svcOf(response).compacted).toBe(true);
    const items = await client.conversations.items.list(conversation.id, { limit: 100 });
    const compaction = items.data.find((item) => (item as { type: string }).type === 'compaction') as { id: string; summary: string } | undefined;
    expect(compaction?.id).toMatch(/^cmp_[0-9a-f]{32}$/);
    expect(compaction!.summary.length).toBeGreaterThan(0);
    // The next turn fits with the summary in place: no new compaction.
    const next = await client.responses.create({ model: SMALL, input: 'And the last one?', previous_response_id: response.id });
    expect(svcOf(next).compacted).toBeUndefined();
  }, 120_000);

  it('compaction off: 400 context_length_exceeded with the numbers', async () => {
    const conversation = await client.conversations.create({ items: notes(30, 20_000) });
    await expect(client.responses.create({ model: SMALL, input: 'Summarize.', conversation: conversation.id, svc: { compaction: 'off' } } as never)).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      message: expect.stringMatching(/about \d+ tokens; the model's context window is 131072/),
    });
  });

  it('a thread near the window is compacted ahead, so the next turn does not wait', async () => {
    // About 105k tokens of history: the turn fits, and passes three quarters of the window.
    const conversation = await client.conversations.create({ items: notes(21, 20_000) });
    const first = await client.responses.create({ model: SMALL, input: 'Note the notes.', conversation: conversation.id } as never);
    expect(svcOf(first).compacted).toBeUndefined();
    let summarized = false;
    for (let tries = 0; tries < 100 && !summarized; tries += 1) {
      const items = await client.conversations.items.list(conversation.id, { limit: 100 });
      summarized = items.data.some((item) => (item as { type: string }).type === 'compaction');
      if (!summarized) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(summarized).toBe(true);
    const next = await client.responses.create({ model: SMALL, input: 'Go on.', previous_response_id: first.id });
    expect(svcOf(next).compacted).toBeUndefined();
    expect(next.usage!.input_tokens).toBeLessThan(first.usage!.input_tokens);
  }, 120_000);
});
