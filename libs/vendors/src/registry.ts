import type { VendorAdapter } from './types';
import { openAIAdapter } from './openai/openai-chat-model';
import { anthropicAdapter } from './anthropic/anthropic-chat-model';
import { geminiAdapter } from './gemini/gemini-chat-model';

/** Adapters by wire protocol; the catalog says which protocol a vendor speaks. */
export const adapters: Partial<Record<VendorAdapter['protocol'], VendorAdapter>> = {
  openai: openAIAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
};

export function adapterFor(protocol: VendorAdapter['protocol']): VendorAdapter | undefined {
  return adapters[protocol];
}
