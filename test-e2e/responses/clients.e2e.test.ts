import OpenAI from 'openai';
import { z } from 'zod';
import { generateText, streamText, stepCountIs, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool as agentTool } from '@openai/agents';
import { fleetState } from '../support/fleet-state';

/**
 * The popular clients' default paths against POST /v1/responses: the Vercel AI SDK's
 * `openai(model)` provider (generateText with a tool loop, streamText) and @openai/agents running
 * an agent with two tools. vendor-sim calls a tool when the last user message carries `[tool:<name>]`.
 */
const MODEL = 'vendor-1/orion-mini-5';

describe('Vercel AI SDK, default openai(model) provider (Responses API)', () => {
  const state = fleetState();
  const provider = createOpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey });

  it('generateText runs a tool loop to a text answer', async () => {
    const calls: string[] = [];
    const result = await generateText({
      model: provider(MODEL),
      prompt: 'What is the weather in Oslo? [tool:get_weather]',
      tools: {
        get_weather: tool({
          description: 'Weather of a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            calls.push(city);
            return { city, celsius: 4 };
          },
        }),
      },
      stopWhen: stepCountIs(4),
      maxRetries: 0,
    });
    expect(calls).toHaveLength(1);
    expect(result.steps.length).toBeGreaterThanOrEqual(2);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.finishReason).toBe('stop');
  });

  it('streamText streams the answer', async () => {
    const result = streamText({ model: provider(MODEL), prompt: 'Say something short.', maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text.length).toBeGreaterThan(0);
    expect(text).toBe(await result.text);
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
  });
});

describe('@openai/agents against the gateway', () => {
  const state = fleetState();

  it('runs an agent with two tools: the tool it is asked for is called, then it answers', async () => {
    setTracingDisabled(true);
    setDefaultOpenAIClient(new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 }) as never);
    setOpenAIAPI('responses');
    const used: string[] = [];
    const agent = new Agent({
      name: 'Support',
      instructions: 'Answer with the tools.',
      model: MODEL,
      tools: [
        agentTool({ name: 'count_orders', description: 'Orders placed in a period', parameters: z.object({ period: z.string() }), execute: async ({ period }) => (used.push('count_orders'), `42 orders in ${period}`) }),
        agentTool({ name: 'refund_order', description: 'Refund one order', parameters: z.object({ order_id: z.string() }), execute: async ({ order_id }) => (used.push('refund_order'), `refunded ${order_id}`) }),
      ],
    });
    const first = await run(agent, 'How many orders were placed last week? [tool:count_orders]');
    expect(used).toEqual(['count_orders']);
    expect(typeof first.finalOutput).toBe('string');
    expect((first.finalOutput as string).length).toBeGreaterThan(0);
    const second = await run(agent, 'Refund order 7. [tool:refund_order]');
    expect(used).toEqual(['count_orders', 'refund_order']);
    expect((second.finalOutput as string).length).toBeGreaterThan(0);
  });
});
