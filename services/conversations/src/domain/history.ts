import { ServiceError } from '@svc/errors';
import { tokensOf, type ItemOrigin, type StoredItem } from './items';

/**
 * A thread's history from its stored rows (pure). The rows come in thread order: the root's
 * items, then each response's items from the oldest turn to the head, each node's items by seq.
 * Compaction rows are applied in creation order (seq): each one takes the place of the first item
 * it replaces and the items it replaces leave the history. A compaction whose items are not all
 * still in the history (they were replaced by another compaction already, on a thread the
 * compaction was not made for) is skipped.
 */

export interface ThreadRow {
  id: string;
  origin: ItemOrigin | string;
  body: StoredItem;
  characters: number;
  replaces: string[];
  seq: bigint;
}

/** The limits of one thread (spec: Conversation items, Limits). */
export const THREAD_MAX_ENTRIES = 4000;
export const THREAD_MAX_TOKENS = 2_000_000;
/** The most characters a thread holds: tokens = ceil(characters / 4) stays within THREAD_MAX_TOKENS. */
export const THREAD_MAX_CHARACTERS = THREAD_MAX_TOKENS * 4;

export interface ThreadTotals {
  entries: number;
  characters: number;
}

export interface AssembledHistory {
  items: StoredItem[];
  /** Stored rows of the thread, every one (what the limits count). */
  thread: ThreadTotals;
  /** What the model is given: the history with compactions in place. */
  history: ThreadTotals;
}

export function assembleHistory(rows: readonly ThreadRow[]): AssembledHistory {
  let list: ThreadRow[] = rows.filter((row) => row.origin !== 'compaction');
  const compactions = rows.filter((row) => row.origin === 'compaction').sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  for (const compaction of compactions) list = applyCompaction(list, compaction) ?? list;
  return {
    items: list.map((row) => row.body),
    thread: totalsOf(rows),
    history: totalsOf(list),
  };
}

function applyCompaction(list: ThreadRow[], compaction: ThreadRow): ThreadRow[] | undefined {
  if (compaction.replaces.length === 0) return undefined;
  const replaced = new Set(compaction.replaces);
  let first = -1;
  let found = 0;
  list.forEach((row, index) => {
    if (replaced.has(row.id)) {
      if (first < 0) first = index;
      found += 1;
    }
  });
  if (found !== replaced.size) return undefined;
  const out: ThreadRow[] = [];
  list.forEach((row, index) => {
    if (index === first) out.push(compaction);
    if (!replaced.has(row.id)) out.push(row);
  });
  return out;
}

export function totalsOf(rows: ReadonlyArray<{ characters: number }>): ThreadTotals {
  let characters = 0;
  for (const row of rows) characters += row.characters;
  return { entries: rows.length, characters };
}

/**
 * A compaction's replaced ids must be a non-empty run of the head's current history: each id
 * once, all present, next to each other and in history order. Earlier compaction items may be
 * among them (a summary of a summary).
 */
export function checkCompactionRun(history: readonly StoredItem[], replaces: readonly string[]): void {
  const fail = (why: string) => new ServiceError('invalid_value', `Invalid value for 'replaces': ${why}.`, { param: 'replaces' });
  if (replaces.length === 0) throw fail('at least one item id is needed');
  if (new Set(replaces).size !== replaces.length) throw fail('an item id appears twice');
  const positions = new Map(history.map((item, index) => [item.id, index]));
  const start = positions.get(replaces[0]!);
  if (start === undefined) throw fail(`item '${replaces[0]}' is not in the thread's history`);
  replaces.forEach((id, offset) => {
    const position = positions.get(id);
    if (position === undefined) throw fail(`item '${id}' is not in the thread's history`);
    if (position !== start + offset) throw fail('the items must be next to each other, in history order');
  });
}

/**
 * The thread limits: a thread holds at most 4000 entries or 2,000,000 estimated tokens. Every
 * stored item of the thread counts (replaced items and compaction items included).
 */
export function checkThreadLimits(totals: ThreadTotals): void {
  const tokens = tokensOf(totals.characters);
  if (totals.entries > THREAD_MAX_ENTRIES || tokens > THREAD_MAX_TOKENS) {
    throw new ServiceError(
      'conversation_too_large',
      `This conversation thread would hold ${totals.entries} entries and about ${tokens} tokens; a thread holds at most ${THREAD_MAX_ENTRIES} entries or ${THREAD_MAX_TOKENS} estimated tokens.`,
    );
  }
}

export function addTotals(a: ThreadTotals, b: ThreadTotals): ThreadTotals {
  return { entries: a.entries + b.entries, characters: a.characters + b.characters };
}
