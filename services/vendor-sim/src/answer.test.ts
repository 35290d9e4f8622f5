import { chooseTool, DEFAULT_THINK_ALL_TOKENS, generateAnswer, reasoningText, wantsReasoning } from './answer';
import { validateInstance } from './schema';
import { simRequest } from './testkit';
import { countTokens } from './tokens';

const weatherTool = {
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city', 'days'], additionalProperties: false },
};
const searchTool = { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };

describe('generateAnswer', () => {
  it('gives the same text for the same request and a different one for another conversation', () => {
    const a = generateAnswer(simRequest({ user: 'What is the plan?' }));
    const b = generateAnswer(simRequest({ user: 'What is the plan?' }));
    const c = generateAnswer(simRequest({ user: 'What is the plan today?' }));
    expect(a.text).toBe(b.text);
    expect(a.text).not.toBe(c.text);
    expect(a.finish).toBe('stop');
  });

  it('writes 8 to 60 words and counts its tokens', () => {
    for (let i = 0; i < 50; i++) {
      const answer = generateAnswer(simRequest({ user: `question ${i}` }));
      const words = answer.text.split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(8);
      expect(words).toBeLessThanOrEqual(60);
      expect(answer.outputTokens).toBe(countTokens(answer.text));
    }
  });

  it('cuts at max tokens with finish length, keeping a prefix of the full answer', () => {
    const full = generateAnswer(simRequest({ user: 'long one' }));
    const cut = generateAnswer(simRequest({ user: 'long one', maxTokens: 3 }));
    expect(cut.finish).toBe('length');
    expect(cut.outputTokens).toBe(3);
    expect(full.text.startsWith(cut.text)).toBe(true);
  });

  it('echoes the last user message when it contains [echo]', () => {
    const answer = generateAnswer(simRequest({ user: 'say exactly this [echo]' }));
    expect(answer.text).toBe('say exactly this [echo]');
  });

  it('cuts before the first stop sequence with finish stop_sequence', () => {
    const answer = generateAnswer(simRequest({ user: '[echo] one two STOP three END four', stop: ['END', 'STOP'] }));
    expect(answer.text).toBe('[echo] one two ');
    expect(answer.finish).toBe('stop_sequence');
    expect(answer.stopSequence).toBe('STOP');
  });

  it('returns JSON valid against a json_schema format', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, minItems: 2 } }, required: ['name', 'tags'], additionalProperties: false };
    const answer = generateAnswer(simRequest({ format: { type: 'json_schema', schema } }));
    expect(validateInstance(schema, JSON.parse(answer.text))).toEqual([]);
  });

  it('returns a JSON object for json_object', () => {
    const answer = generateAnswer(simRequest({ format: { type: 'json_object' } }));
    expect(typeof JSON.parse(answer.text)).toBe('object');
  });

  it('refuses when asked to', () => {
    const answer = generateAnswer(simRequest(), { refuse: true });
    expect(answer).toMatchObject({ text: '', finish: 'refusal', outputTokens: 0 });
  });
});

describe('tool calls', () => {
  it('calls a tool under required with arguments valid against its schema', () => {
    const answer = generateAnswer(simRequest({ tools: [weatherTool], toolChoice: { mode: 'required' } }));
    expect(answer.finish).toBe('tool_call');
    expect(answer.toolCall?.name).toBe('get_weather');
    expect(validateInstance(weatherTool.parameters, JSON.parse(answer.toolCall?.argumentsJson ?? ''))).toEqual([]);
  });

  it('under auto calls a tool only when the user message carries a [tool] marker', () => {
    const tools = [weatherTool, searchTool];
    expect(chooseTool(simRequest({ tools, toolChoice: { mode: 'auto' } }))).toBeUndefined();
    expect(chooseTool(simRequest({ tools, toolChoice: { mode: 'auto' }, user: 'do it [tool]' }))?.name).toBe('get_weather');
    expect(chooseTool(simRequest({ tools, toolChoice: { mode: 'auto' }, user: 'do it [tool:search]' }))?.name).toBe('search');
  });

  it('under auto a [tool:name] marker whose tool is not offered calls nothing', () => {
    expect(chooseTool(simRequest({ tools: [weatherTool], toolChoice: { mode: 'auto' }, user: 'hard one [tool:svc_escalate]' }))).toBeUndefined();
    const hidden = { name: 'svc_escalate', parameters: { type: 'object', properties: { reason: { type: 'string' } } } };
    expect(chooseTool(simRequest({ tools: [weatherTool, hidden], toolChoice: { mode: 'auto' }, user: 'hard one [tool:svc_escalate]' }))?.name).toBe('svc_escalate');
  });

  it('the empty and not-json faults answer text that fails a check: empty with stop, or not JSON under a JSON format', () => {
    const empty = generateAnswer(simRequest({ user: 'hi' }), { empty: true });
    expect(empty).toMatchObject({ text: '', finish: 'stop', outputTokens: 0 });
    const notJson = generateAnswer(simRequest({ user: 'hi', format: { type: 'json_object' } }), { notJson: true });
    expect(notJson.finish).toBe('stop');
    expect(() => JSON.parse(notJson.text)).toThrow();
    expect(notJson.outputTokens).toBe(countTokens(notJson.text));
  });

  it('honours a named tool and never calls under none or after a tool result', () => {
    const tools = [weatherTool, searchTool];
    expect(chooseTool(simRequest({ tools, toolChoice: { mode: 'named', name: 'search' } }))?.name).toBe('search');
    expect(chooseTool(simRequest({ tools, toolChoice: { mode: 'none' }, user: '[tool]' }))).toBeUndefined();
    const after = generateAnswer(simRequest({ tools, toolChoice: { mode: 'required' }, lastIsToolResult: true, user: '' }));
    expect(after.toolCall).toBeUndefined();
    expect(after.text.length).toBeGreaterThan(0);
  });
});

describe('reasoning', () => {
  it('is asked for by effort above minimal or a non-zero budget', () => {
    expect(wantsReasoning(undefined)).toBe(false);
    expect(wantsReasoning({ effort: 'minimal' })).toBe(false);
    expect(wantsReasoning({ effort: 'none' })).toBe(false);
    expect(wantsReasoning({ effort: 'low' })).toBe(true);
    expect(wantsReasoning({ budget: 0 })).toBe(false);
    expect(wantsReasoning({ budget: 2048 })).toBe(true);
    expect(wantsReasoning({ budget: -1 })).toBe(true);
  });

  it('reports reasoning tokens within the budget and leaves the answer text unchanged', () => {
    const plain = generateAnswer(simRequest({ user: 'think' }));
    const thought = generateAnswer(simRequest({ user: 'think', reasoning: { budget: 50 } }));
    expect(thought.reasoningTokens).toBeGreaterThan(0);
    expect(thought.reasoningTokens).toBeLessThanOrEqual(50);
    expect(thought.text).toBe(plain.text);
  });

  it('spends the whole budget on reasoning under think-all', () => {
    const capped = generateAnswer(simRequest({ maxTokens: 300 }), { thinkAll: true });
    expect(capped).toMatchObject({ text: '', finish: 'length', reasoningTokens: 300, outputTokens: 0 });
    expect(generateAnswer(simRequest(), { thinkAll: true }).reasoningTokens).toBe(DEFAULT_THINK_ALL_TOKENS);
  });

  it('writes visible thinking of exactly the reported size', () => {
    expect(countTokens(reasoningText(42, 137))).toBe(137);
    expect(reasoningText(42, 0)).toBe('');
  });
});
