import { catalog } from '@svc/catalog';
import { randomUUID } from 'node:crypto';
import { fleetState, newOrganization } from '../support/fleet-state';

const tools = [{ type: 'function', function: { name: 'run_tests', description: 'Run the test suite', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];

async function auto(messages: unknown[], sessionId: string, headers: Record<string, string> = {}) {
  const state = fleetState();
  const response = await fetch(`${state.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${state.apiKey}`, 'x-svc-session-id': sessionId, ...headers },
    body: JSON.stringify({ model: 'auto', tools, max_tokens: 200, messages }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { svc: Record<string, any>; choices: Array<{ message: any }> };
}

describe('auto routing and sessions through the public API', () => {
  it('classifies the first turn, reuses the pick on tool-result turns, and classifies a new human message again', async () => {
    const session = `e2e-${randomUUID()}`;
    const question = { role: 'user', content: 'My Jest test for the payment parser fails with TypeError: cannot read properties of undefined (reading "amount"). Please debug it.' };
    const first = await auto([question], session);
    expect(first.svc.session_id).toBe(session);
    expect(first.svc.routing).toMatchObject({ line: 'auto', trigger: 'no_prior_decision', classifier: expect.any(String), reason: expect.any(String) });
    expect(first.svc.routing.difficulty).toBeGreaterThanOrEqual(1);
    expect(['easy', 'medium', 'hard', 'frontier']).toContain(first.svc.routing.band);
    expect(['normal', 'high']).toContain(first.svc.routing.stakes);
    expect(first.svc.routing.confidence).toBeGreaterThan(0);
    expect(first.svc.cost.call_fee_micros).toBeGreaterThan(0);
    const model = first.svc.model_served;

    const toolTurn = await auto(
      [
        question,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'run_tests', arguments: '{"path":"parser.test.ts"}' } }] },
        { role: 'tool', tool_call_id: 'call_a', content: '1 passed, 0 failed' },
      ],
      session,
    );
    expect(toolTurn.svc.routing.trigger).toBe('cache_hit');
    expect(toolTurn.svc.model_served).toBe(model);
    // Every auto request still pays the fixed auto fee once.
    expect(toolTurn.svc.cost.call_fee_micros).toBe(first.svc.cost.call_fee_micros);

    const next = await auto(
      [
        question,
        { role: 'assistant', content: 'Fixed: the parser now checks for a missing amount.' },
        { role: 'user', content: 'Great. Now translate the release note into German please.' },
      ],
      session,
    );
    expect(next.svc.routing.trigger).toBe('new_human_message');
  });

  it('named models are explicit, with no classifier', async () => {
    const state = fleetState();
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}` },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = await response.json();
    expect(body.svc.routing.trigger).toBe('explicit');
    expect(body.svc.routing.classifier).toBeUndefined();
    expect(body.svc.cost.call_fee_micros).toBe(0);
  });

  it.each([
    ['auto/cheap', 'cheap'],
    ['auto/balanced', 'balanced'],
    ['auto/best', 'best'],
  ])('%s reports line %s and a floor', async (model, line) => {
    const state = fleetState();
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Write a SQL query that returns the ten customers with the highest total order value last quarter.' }] }),
    });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.svc.routing.line).toBe(line);
    expect(body.svc.routing.cell).toMatch(/^[a-z_:]+\/(easy|medium|hard|frontier)$/);
    // Routed by skills (not the earlier rule) the floor is reported; higher lines never floor lower.
    if (body.svc.routing.task !== 'other') expect(['none', 'middle', 'top']).toContain(body.svc.routing.floor);
    if (line !== 'cheap' && body.svc.routing.floor) expect(body.svc.routing.floor).not.toBe('none');
    expect(body.model).toBe(body.svc.model_served);
  });

  it('reuses the decision on the tool-result turn of a plain agent request with a clear kind of work', async () => {
    const session = `e2e-${randomUUID()}`;
    const question = { role: 'user', content: 'How many orders were placed last week? Use the tool.' };
    const first = await auto([question], session);
    expect(first.svc.routing.task_type).toBe('agent:tool_dispatch');
    expect(first.svc.routing.confidence).toBeGreaterThanOrEqual(0.5);
    const toolTurn = await auto(
      [
        question,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'run_tests', arguments: '{"path":"orders"}' } }] },
        { role: 'tool', tool_call_id: 'call_b', content: '{"orders": 1312}' },
      ],
      session,
    );
    expect(toolTurn.svc.routing.trigger).toBe('cache_hit');
    expect(toolTurn.svc.model_served).toBe(first.svc.model_served);
  });

  it('routes text of another script to a model whose context window holds it (one token a character, not characters / 4)', async () => {
    const state = fleetState();
    // A key of its own: its token bucket takes the real count of this prompt afterwards.
    const { apiKey } = newOrganization({ keyFlags: ['--tpm', '100000000'] });
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auto', max_tokens: 20, messages: [{ role: 'user', content: `${'é'.repeat(600_000)} Summarize this.` }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { usage: { prompt_tokens: number }; svc: { model_served: string } };
    expect(catalog.chatModel(body.svc.model_served)!.capabilities.context_window).toBeGreaterThanOrEqual(body.usage.prompt_tokens);
  });

  it('answers an auto call whose prompt is one 100,000-character unbroken token', async () => {
    const body = await auto([{ role: 'user', content: 'x'.repeat(100_000) }], `e2e-${randomUUID()}`);
    expect(body.svc.routing.trigger).toBe('no_prior_decision');
    expect(body.svc.routing.classifier).toEqual(expect.any(String));
  });
});
