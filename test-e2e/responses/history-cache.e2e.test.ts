import OpenAI from 'openai';
import { freePort } from '../../libs/fleet/src';
import { fleetState, spawnEdge } from '../support/fleet-state';

// The edge's copy of recent thread histories (services/edge/src/responses/history-cache.ts)
// across two edge replicas of one fleet: a turn continuing from a response edge A stored starts
// from A's copy (svc_responses_history_cache_total{result="hit"} on A's Prometheus endpoint), and
// what another replica changes — items added, the response deleted — is what A's next turn
// sees at once (the conversations service announces each change; A drops its copy).

const MODEL = 'vendor-1/orion-mini-5';

async function historyCacheCount(metricsPort: number, result: 'hit' | 'miss'): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith('svc_responses_history_cache_total') && entry.includes(`result="${result}"`));
  return line ? Number(line.trim().split(/\s+/).pop()) : 0;
}

describe('the edge history cache across replicas', () => {
  const state = fleetState();
  let edges: Array<Awaited<ReturnType<typeof spawnEdge>>> = [];
  let metricsPort = 0;

  beforeAll(async () => {
    metricsPort = await freePort();
    const shared = { CONVERSATIONS_ADDR: `127.0.0.1:${state.ports.conversations}`, IP_RATE_LIMIT_PER_MINUTE: '1000000' };
    edges = [await spawnEdge({ ...shared, METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }), await spawnEdge(shared)];
  });

  afterAll(async () => {
    await Promise.all(edges.map((edge) => edge.stop()));
  });

  it('a turn from a response this edge stored skips BuildHistory; changes made through another replica are seen at once', async () => {
    const [a, b] = edges.map((edge) => new OpenAI({ baseURL: edge.baseUrl, apiKey: state.apiKey, maxRetries: 0 }));
    const first = await a!.responses.create({ model: MODEL, input: 'One.' });
    const second = await a!.responses.create({ model: MODEL, input: 'Two.', previous_response_id: first.id });
    const conversationId = (second as unknown as { conversation: { id: string } }).conversation.id;

    const hitsBefore = await historyCacheCount(metricsPort, 'hit');
    const viaA = await a!.responses.create({ model: MODEL, input: 'Three.', previous_response_id: second.id, store: false });
    expect(await historyCacheCount(metricsPort, 'hit')).toBe(hitsBefore + 1);
    // The same history as the other replica reads from the conversations service.
    const viaB = await b!.responses.create({ model: MODEL, input: 'Three.', previous_response_id: second.id, store: false });
    expect(viaA.usage!.input_tokens).toBe(viaB.usage!.input_tokens);

    // Items added through B are in the history A gives the next turn.
    await b!.conversations.items.create(conversationId, { items: [{ type: 'message', role: 'user', content: 'A note added through the other replica, long enough to count for several tokens.' }] });
    const afterAdd = await a!.responses.create({ model: MODEL, input: 'Three.', previous_response_id: second.id, store: false });
    expect(afterAdd.usage!.input_tokens).toBeGreaterThan(viaA.usage!.input_tokens);

    // A stored turn's copy is kept too (the history after it, composed on A).
    const third = await a!.responses.create({ model: MODEL, input: 'Four.', previous_response_id: second.id });
    const hitsThen = await historyCacheCount(metricsPort, 'hit');
    const fourthViaA = await a!.responses.create({ model: MODEL, input: 'Five.', previous_response_id: third.id, store: false });
    expect(await historyCacheCount(metricsPort, 'hit')).toBe(hitsThen + 1);
    const fourthViaB = await b!.responses.create({ model: MODEL, input: 'Five.', previous_response_id: third.id, store: false });
    expect(fourthViaA.usage!.input_tokens).toBe(fourthViaB.usage!.input_tokens);

    // Deleted through B: A refuses to continue from it or from what followed it, stored or not.
    await b!.responses.delete(second.id);
    await expect(a!.responses.create({ model: MODEL, input: 'Six.', previous_response_id: third.id, store: false })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    await expect(a!.responses.create({ model: MODEL, input: 'Six.', previous_response_id: second.id, store: false })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    // The conversation deleted through B: the first turn is gone for A as well.
    await b!.conversations.delete(conversationId);
    await expect(a!.responses.create({ model: MODEL, input: 'Seven.', previous_response_id: first.id, store: false })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
  });

  it("another organization's response id is never served from the copy", async () => {
    const [a] = edges.map((edge) => new OpenAI({ baseURL: edge.baseUrl, apiKey: state.apiKey, maxRetries: 0 }));
    const stored = await a!.responses.create({ model: MODEL, input: 'Mine.' });
    const { newOrganization } = await import('../support/fleet-state');
    const other = new OpenAI({ baseURL: edges[0]!.baseUrl, apiKey: newOrganization().apiKey, maxRetries: 0 });
    await expect(other.responses.create({ model: MODEL, input: 'Yours?', previous_response_id: stored.id, store: false })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
  });
});
