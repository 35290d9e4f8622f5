import type { ContentPart, ToolCall, VendorMessage } from '@svc/vendors';
import type { ChatImage, ChatRequestInput } from '../request/chat-request';
import { decodeDataUrl } from '../request/chat-request-schema';

/** A stored conversation item as history reads it (spec: Conversation items). */
export type HistoryItem =
  | { type: 'message'; id?: string; role: 'user' | 'assistant' | 'system' | 'developer'; content: Array<{ type: string; text?: string; image_url?: string }> }
  | { type: 'function_call'; id?: string; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; id?: string; call_id: string; output: string }
  | { type: 'compaction'; id?: string; summary: string };

/**
 * The turn's request with its stored history in front (thread order): history messages before the
 * turn's own, system and developer texts (and compaction summaries, which stand for the history
 * they replaced) joined into the system prompt ahead of the turn's instructions, identical texts
 * once. Images in history are sent again: data: URLs decoded, http(s) URLs downloaded with the
 * turn's own.
 */
export function withHistory(chat: ChatRequestInput, history: readonly HistoryItem[]): ChatRequestInput {
  if (history.length === 0) return chat;
  const systemTexts: string[] = [];
  const messages: VendorMessage[] = [];
  const images: ChatImage[] = [];
  for (const item of history) {
    if (item.type === 'compaction') {
      systemTexts.push(`Summary of the earlier conversation:\n${item.summary}`);
      continue;
    }
    if (item.type === 'function_call') {
      const call: ToolCall = { id: item.call_id, name: item.name, arguments: item.arguments || '{}' };
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ role: 'assistant', content: null, toolCalls: [call] });
      continue;
    }
    if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', toolCallId: item.call_id, content: item.output });
      continue;
    }
    const text = item.content.map((part) => part.text ?? '').join('');
    if (item.role === 'system' || item.role === 'developer') {
      systemTexts.push(text);
      continue;
    }
    if (item.role === 'assistant') {
      messages.push({ role: 'assistant', content: text });
      continue;
    }
    const parts: ContentPart[] = [];
    item.content.forEach((part, partIndex) => {
      if (part.type !== 'input_image' || !part.image_url) {
        parts.push({ type: 'text', text: part.text ?? '' });
        return;
      }
      const decoded = decodeDataUrl(part.image_url);
      images.push({ messageIndex: -1, partIndex, vendorMessageIndex: messages.length, url: part.image_url, decoded: decoded !== undefined, param: `history ${item.id ?? ''}`.trim() });
      if (decoded) parts.push({ type: 'image', mediaType: decoded.mediaType, data: decoded.data });
    });
    messages.push({ role: 'user', content: parts });
  }
  const shift = messages.length;
  const system = [...new Set([...systemTexts, ...(chat.system ? [chat.system] : [])])].filter((text) => text !== '');
  return {
    ...chat,
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages: [...messages, ...chat.messages],
    images: [...images, ...chat.images.map((image) => ({ ...image, vendorMessageIndex: image.vendorMessageIndex + shift }))],
    needsVision: chat.needsVision || images.length > 0,
  };
}
