import { VIRTUAL_MODEL_IDS, type Catalog } from '@svc/catalog';
import { tokensForCharacters } from '../tokens';
import type { HistoryItem } from './history';

/**
 * Compaction (spec: Compaction): when stored history plus the turn does not fit the serving
 * model's context window, the oldest part of the thread is summarized by a fast model and stored
 * as a `compaction` item that stands in for it. These are the pure rules; the edge decides and
 * waits, the workers write the summary (conversation.compact).
 */

/** Share of the context window the history is brought down to (room for the answer and growth). */
export const COMPACTION_TARGET = 0.5;
/** A thread whose history passes this share of the window gets its summary queued ahead. */
export const COMPACTION_AHEAD = 0.75;
/** The most recent items are always kept verbatim. */
export const KEEP_RECENT_ITEMS = 4;

export const SUMMARY_INSTRUCTIONS =
  'You compress the earlier part of a conversation so it can continue without it. Write a faithful summary: the user\'s goals and constraints, facts and decisions, names, numbers, code and identifiers that may matter later, tool calls made and what they returned, and open questions. Do not add anything that is not in the transcript. Plain text, no preamble.';

/**
 * The context window a turn must fit: the named model's; under a virtual id, the largest among
 * the models routing may pick (routing keeps only models whose window fits the input).
 */
export function contextWindowFor(catalog: Catalog, model: string): number {
  const named = catalog.chatModel(model);
  if (named) return named.capabilities.context_window;
  if (!(VIRTUAL_MODEL_IDS as readonly string[]).includes(model)) return Number.POSITIVE_INFINITY;
  return Math.max(...catalog.chatModels.filter((candidate) => !candidate.named_only).map((candidate) => candidate.capabilities.context_window));
}

function itemText(item: HistoryItem): string {
  switch (item.type) {
    case 'compaction':
      return `[summary of earlier conversation] ${item.summary}`;
    case 'function_call':
      return `assistant called ${item.name}(${item.arguments})`;
    case 'function_call_output':
      return `tool result for ${item.call_id}: ${item.output}`;
    default:
      return `${item.role}: ${item.content.map((part) => part.text ?? (part.image_url ? '[image]' : '')).join('')}`;
  }
}

export function itemTokens(item: HistoryItem): number {
  return tokensForCharacters(itemText(item).length);
}

/**
 * Which items to replace, oldest first, so the rest of the history is at most `targetTokens`:
 * never the last KEEP_RECENT_ITEMS, never a tool call without its output (the cut moves past
 * the outputs of the calls it takes). Undefined when nothing can be replaced.
 */
export function planCompaction(items: readonly HistoryItem[], targetTokens: number): { replaces: string[]; transcript: string; remainingTokens: number; removedTokens: number } | undefined {
  const total = items.reduce((sum, item) => sum + itemTokens(item), 0);
  const limit = Math.max(0, items.length - KEEP_RECENT_ITEMS);
  let cut = 0;
  let removed = 0;
  while (cut < limit && total - removed > targetTokens) {
    removed += itemTokens(items[cut]);
    cut += 1;
  }
  // Keep tool calls and their outputs together: take the outputs of the calls being replaced.
  const openCalls = new Set<string>();
  for (let index = 0; index < cut; index += 1) {
    const item = items[index];
    if (item.type === 'function_call') openCalls.add(item.call_id);
    if (item.type === 'function_call_output') openCalls.delete(item.call_id);
  }
  while (openCalls.size > 0 && cut < items.length) {
    const item = items[cut];
    if (item.type === 'function_call_output') openCalls.delete(item.call_id);
    if (item.type === 'function_call') openCalls.add(item.call_id);
    removed += itemTokens(item);
    cut += 1;
  }
  const replaced = items.slice(0, cut).filter((item) => item.id);
  if (replaced.length === 0 || cut >= items.length) return undefined;
  return { replaces: replaced.map((item) => item.id as string), transcript: replaced.map(itemText).join('\n'), remainingTokens: total - removed, removedTokens: removed };
}
