import { DEFAULT_MAX_TOKENS } from '@svc/catalog';
import type { VendorMessage } from '@svc/vendors';
import { countTokensUpTo } from '@svc/tokenizer';

/**
 * Every token estimate of a call, from one rule (spec: Limits, "estimate ... one token per four
 * characters"): admission's reservation, the key's token bucket, the router's eligibility check,
 * the prompt-cache minimum prefix and embeddings all count the same way.
 */

/** An image counts as this many characters. */
export const IMAGE_CHARACTERS = 1000;

/** The one rule: characters / 4, rounded up (UTF-16 length). */
export function tokensForCharacters(characters: number): number {
  return Math.ceil(characters / 4);
}

/**
 * The one walk over a vendor message's shape: each text it sends (an assistant's tool calls as
 * their JSON) to `text`, each image part to `image`.
 */
function visitMessage(message: VendorMessage, text: (value: string) => void, image: () => void): void {
  if (message.role === 'user') {
    for (const part of message.content) {
      if (part.type === 'text') text(part.text);
      else image();
    }
  } else if (message.role === 'assistant') {
    if (message.content) text(message.content);
    if (message.toolCalls?.length) text(JSON.stringify(message.toolCalls));
  } else text(message.content);
}

/** Characters of one vendor message: text, an image as IMAGE_CHARACTERS, an assistant's tool calls as their JSON. */
export function messageCharacters(message: VendorMessage): number {
  let characters = 0;
  visitMessage(
    message,
    (text) => (characters += text.length),
    () => (characters += IMAGE_CHARACTERS),
  );
  return characters;
}

/**
 * Input tokens of a chat request: system prompt and messages, and every image part whether it is
 * already in the messages (a data: URL) or still to be downloaded.
 */
export function estimateInputTokens(request: { system?: string; messages: readonly VendorMessage[]; images: ReadonlyArray<{ decoded: boolean }> }): number {
  let characters = request.system?.length ?? 0;
  for (const message of request.messages) characters += messageCharacters(message);
  for (const image of request.images) if (!image.decoded) characters += IMAGE_CHARACTERS;
  return tokensForCharacters(characters);
}

/**
 * Input tokens of a chat request counted with a real byte-pair encoding, as far as `limit` (limit
 * + 1 means more): the Free plan's "16000 input tokens" (spec: Limits) is a count of tokens, which
 * characters / 4 misjudges both ways (a word and its space is one token, a CJK character about
 * one). Images count IMAGE_CHARACTERS / 4 each. Only text up to about `limit` tokens is encoded.
 */
export function countInputTokensUpTo(request: { system?: string; messages: readonly VendorMessage[]; images: ReadonlyArray<{ decoded: boolean }> }, limit: number): number {
  const texts: string[] = request.system ? [request.system] : [];
  let images = 0;
  for (const message of request.messages) visitMessage(message, (text) => texts.push(text), () => (images += 1));
  for (const image of request.images) if (!image.decoded) images += 1;
  const imageTokens = images * tokensForCharacters(IMAGE_CHARACTERS);
  if (imageTokens > limit) return limit + 1;
  return imageTokens + countTokensUpTo(texts, limit - imageTokens);
}

/**
 * Input tokens a context window must hold, for the fit check of routing (a model's context window
 * must hold the input): characters / 4 undercounts text that is not ASCII words — accented
 * letters, CJK and other scripts take about one token per character — so every character outside
 * ASCII counts as one token here, ASCII as a quarter, images as IMAGE_CHARACTERS / 4. Linear in the
 * input. Charging and the token bucket keep the spec's characters / 4 (estimateInputTokens).
 */
export function estimateContextTokens(request: { system?: string; messages: readonly VendorMessage[]; images: ReadonlyArray<{ decoded: boolean }> }): number {
  let ascii = 0;
  let other = 0;
  const count = (text: string) => {
    // Most text is all ASCII: one native scan decides, and only other text is walked.
    if (!NON_ASCII.test(text)) {
      ascii += text.length;
      return;
    }
    for (let index = 0; index < text.length; index += 1) {
      if (text.charCodeAt(index) < 0x80) ascii += 1;
      else other += 1;
    }
  };
  if (request.system) count(request.system);
  let imageCharacters = 0;
  for (const message of request.messages) visitMessage(message, count, () => (imageCharacters += IMAGE_CHARACTERS));
  for (const image of request.images) if (!image.decoded) imageCharacters += IMAGE_CHARACTERS;
  return other + tokensForCharacters(ascii + imageCharacters);
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Input tokens of an embeddings request. */
export function estimateEmbeddingTokens(inputs: readonly string[]): number {
  let characters = 0;
  for (const input of inputs) characters += input.length;
  return tokensForCharacters(characters);
}

function tokenCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : 0;
}

/**
 * What a chat call may use (spec, Limits: "input tokens plus max_tokens clamped to the served
 * model's output"; max_tokens defaults to DEFAULT_MAX_TOKENS).
 */
export function estimateChatTokens(inputTokensEstimate: number, maxTokens: number | undefined, modelMaxOutput: number, defaultMaxTokens = DEFAULT_MAX_TOKENS): number {
  const requested = tokenCount(maxTokens ?? defaultMaxTokens);
  const output = modelMaxOutput > 0 ? Math.min(requested, tokenCount(modelMaxOutput)) : requested;
  return tokenCount(inputTokensEstimate) + output;
}
