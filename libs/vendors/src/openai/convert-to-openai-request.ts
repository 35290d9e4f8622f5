import type { ChatRequest, ContentPart, VendorMessage } from '../types';

function part(content: ContentPart): Record<string, unknown> {
  if (content.type === 'text') return { type: 'text', text: content.text };
  // Images travel as bytes: the service downloaded them (never the client's URL).
  return { type: 'image_url', image_url: { url: `data:${content.mediaType};base64,${content.data.toString('base64')}` } };
}

function message(input: VendorMessage): Record<string, unknown> {
  if (input.role === 'user') {
    const onlyText = input.content.every((content) => content.type === 'text');
    return { role: 'user', content: onlyText ? input.content.map((content) => (content as { text: string }).text).join('') : input.content.map(part) };
  }
  if (input.role === 'tool') return { role: 'tool', tool_call_id: input.toolCallId, content: input.content };
  const out: Record<string, unknown> = { role: 'assistant', content: input.content };
  if (input.toolCalls && input.toolCalls.length > 0) {
    out.tool_calls = input.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  }
  return out;
}

/** The OpenAI chat-completions body for a normalised request. */
export function convertToOpenAIRequest(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: [...(request.system ? [{ role: 'system', content: request.system }] : []), ...request.messages.map(message)],
    max_completion_tokens: request.maxTokens,
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice) body.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', function: { name: request.toolChoice.name } };
  if (request.responseFormat && request.responseFormat.type !== 'text') {
    body.response_format =
      request.responseFormat.type === 'json_schema'
        ? { type: 'json_schema', json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: request.responseFormat.strict } }
        : { type: 'json_object' };
  }
  if (request.reasoning?.kind === 'effort') body.reasoning_effort = request.reasoning.level;
  if (request.metadata && Object.keys(request.metadata).length > 0) body.metadata = request.metadata;
  if (request.user) body.user = request.user;
  // Absent means the project's default tier (standard); only flex is asked for by name.
  if (request.tier === 'flex') body.service_tier = 'flex';
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}
