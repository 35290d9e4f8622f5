export * from './types';
export * from './errors';
export { readSse } from './sse';
export { normaliseArguments } from './http';
export { adapters, adapterFor } from './registry';
export { mapReasoning, REASONING_SCALE, type MappedReasoning } from './reasoning';
export { openAIAdapter } from './openai/openai-chat-model';
export { anthropicAdapter } from './anthropic/anthropic-chat-model';
export { geminiAdapter } from './gemini/gemini-chat-model';
