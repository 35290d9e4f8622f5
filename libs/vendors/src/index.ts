export * from './types';
export * from './errors';
export { readSse } from './sse';
export { normaliseArguments, dispatcher } from './http';
export { adapters, adapterFor } from './registry';
export { openAIAdapter } from './openai/openai-chat-model';
