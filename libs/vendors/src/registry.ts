import type { VendorAdapter } from './types';
import type { VendorBatchAdapter } from './batch-types';
import { openAIBatchAdapter } from './openai/openai-batch';
import { anthropicBatchAdapter } from './anthropic/anthropic-batch';
import { geminiBatchAdapter } from './gemini/gemini-batch';
import { openAIAdapter } from './openai/openai-chat-model';
import { anthropicAdapter } from './anthropic/anthropic-chat-model';
import { geminiAdapter } from './gemini/gemini-chat-model';
import { decisionAdapter } from './decision/decision-model';

/** Adapters by wire protocol; the catalog says which protocol a vendor speaks (and a model, where it speaks its own). */
export const adapters: Partial<Record<VendorAdapter['protocol'], VendorAdapter>> = {
  openai: openAIAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  decision: decisionAdapter,
};

export function adapterFor(protocol: VendorAdapter['protocol']): VendorAdapter | undefined {
  return adapters[protocol];
}

/** Batch adapters by wire protocol (every protocol has a batch API; a model's catalog `batch` says whether it may use it). */
export const batchAdapters: Partial<Record<VendorBatchAdapter['protocol'], VendorBatchAdapter>> = {
  openai: openAIBatchAdapter,
  anthropic: anthropicBatchAdapter,
  gemini: geminiBatchAdapter,
};

export function batchAdapterFor(protocol: VendorBatchAdapter['protocol']): VendorBatchAdapter | undefined {
  return batchAdapters[protocol];
}
