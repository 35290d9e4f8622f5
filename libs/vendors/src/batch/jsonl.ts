import { StringDecoder } from 'node:string_decoder';
import { VendorError, errorFromFetch } from '../errors';

/**
 * The lines of a JSONL body as it arrives, parsed one at a time: the body is never held whole.
 * Blank lines are skipped; a line that is not JSON is a bad response.
 */
export async function* readJsonLines(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncIterable<unknown> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const parse = (line: string): unknown => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new VendorError('bad_response', 'vendor sent an unreadable result line', { cause: error });
    }
  };
  try {
    for await (const chunk of body) {
      pending += decoder.write(Buffer.from(chunk));
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (line) yield parse(line);
        end = pending.indexOf('\n');
      }
    }
  } catch (error) {
    if (error instanceof VendorError) throw error;
    throw errorFromFetch(error, signal);
  }
  const last = (pending + decoder.end()).trim();
  if (last) yield parse(last);
}

/** Serialises values as JSONL, a line at a time, for streamed uploads. */
export async function* jsonLines<T>(items: Iterable<T> | AsyncIterable<T>, toLine: (item: T) => unknown): AsyncIterable<string> {
  for await (const item of items) yield `${JSON.stringify(toLine(item))}\n`;
}

/** Anthropic's custom_id rule; the others take any string. */
export const ANTHROPIC_CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Custom ids are unique within a batch (and match the vendor's pattern, where it has one). */
export function checkCustomId(customId: string, seen: Set<string>, pattern?: RegExp): void {
  if (typeof customId !== 'string' || customId === '') throw new VendorError('invalid_request', 'batch line has no custom id');
  if (pattern && !pattern.test(customId)) throw new VendorError('invalid_request', `batch line custom id "${customId.slice(0, 80)}" is not 1-64 of A-Z a-z 0-9 _ -`);
  if (seen.has(customId)) throw new VendorError('invalid_request', `batch line custom id "${customId}" is used twice`);
  seen.add(customId);
}
