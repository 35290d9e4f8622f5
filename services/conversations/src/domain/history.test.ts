import { ServiceError } from '@svc/errors';
import { assembleHistory, checkCompactionRun, checkThreadLimits, THREAD_MAX_ENTRIES, THREAD_MAX_TOKENS, type ThreadRow } from './history';
import type { StoredItem } from './items';

let seq = 0n;
function row(id: string, characters = 4, origin = 'input'): ThreadRow {
  seq += 1n;
  const body: StoredItem = { type: 'message', id, status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'x'.repeat(characters) }] };
  return { id, origin, body, characters, replaces: [], seq };
}
function compaction(id: string, replaces: string[], characters = 8): ThreadRow {
  seq += 1n;
  return { id, origin: 'compaction', body: { type: 'compaction', id, summary: 's'.repeat(characters) }, characters, replaces, seq };
}
const ids = (items: StoredItem[]) => items.map((item) => item.id);

describe('assembleHistory', () => {
  it('keeps thread order when nothing was compacted', () => {
    const rows = [row('a'), row('b'), row('c')];
    const history = assembleHistory(rows);
    expect(ids(history.items)).toEqual(['a', 'b', 'c']);
    expect(history.thread).toEqual({ entries: 3, characters: 12 });
    expect(history.history).toEqual(history.thread);
  });

  it('puts a compaction in place of the run it replaced; the thread totals still count everything', () => {
    const rows = [row('a'), row('b'), row('c'), row('d'), compaction('cmp1', ['a', 'b'])];
    const history = assembleHistory(rows);
    expect(ids(history.items)).toEqual(['cmp1', 'c', 'd']);
    expect(history.thread).toEqual({ entries: 5, characters: 24 });
    expect(history.history).toEqual({ entries: 3, characters: 16 });
  });

  it('applies compactions in creation order, a later one may replace an earlier one', () => {
    const first = compaction('cmp1', ['a', 'b']);
    const rows = [row('a'), row('b'), row('c'), row('d'), row('e')];
    const second = compaction('cmp2', ['cmp1', 'c']);
    // Stored on a later node than the rows it sits among: order in the list does not matter, seq does.
    expect(ids(assembleHistory([...rows.slice(0, 2), second, ...rows.slice(2), first]).items)).toEqual(['cmp2', 'd', 'e']);
  });

  it('skips a compaction whose items are not all in this history any more', () => {
    const rows = [row('a'), row('b'), row('c'), compaction('cmp1', ['a', 'b']), compaction('cmp_other_branch', ['b', 'c'])];
    expect(ids(assembleHistory(rows).items)).toEqual(['cmp1', 'c']);
  });

  it('a compaction in the middle keeps what came before it', () => {
    const rows = [row('a'), row('b'), row('c'), row('d'), compaction('cmp1', ['b', 'c'])];
    expect(ids(assembleHistory(rows).items)).toEqual(['a', 'cmp1', 'd']);
  });
});

describe('checkCompactionRun', () => {
  const history = (['a', 'b', 'c', 'd'] as const).map((id) => row(id).body);
  const param = (run: () => void) => {
    try {
      run();
    } catch (error) {
      return error instanceof ServiceError ? `${error.code}:${error.param}` : 'other';
    }
    return 'ok';
  };
  it('accepts a contiguous run in history order', () => {
    expect(param(() => checkCompactionRun(history, ['a', 'b', 'c']))).toBe('ok');
    expect(param(() => checkCompactionRun(history, ['c', 'd']))).toBe('ok');
  });
  it('refuses an empty, repeated, unknown, gapped or reordered run', () => {
    for (const replaces of [[], ['a', 'a'], ['a', 'x'], ['a', 'c'], ['b', 'a']]) expect(param(() => checkCompactionRun(history, replaces))).toBe('invalid_value:replaces');
  });
});

describe('checkThreadLimits', () => {
  const code = (entries: number, characters: number) => {
    try {
      checkThreadLimits({ entries, characters });
      return 'ok';
    } catch (error) {
      return (error as ServiceError).code;
    }
  };
  it('a thread holds at most 4000 entries or 2,000,000 estimated tokens', () => {
    expect(code(THREAD_MAX_ENTRIES, 0)).toBe('ok');
    expect(code(THREAD_MAX_ENTRIES + 1, 0)).toBe('conversation_too_large');
    expect(code(1, THREAD_MAX_TOKENS * 4)).toBe('ok');
    expect(code(1, THREAD_MAX_TOKENS * 4 + 1)).toBe('conversation_too_large');
  });
});

describe('THREAD_MAX_CHARACTERS', () => {
  it('is the largest character count the token rule keeps within 2,000,000 tokens', async () => {
    const { tokensOf } = await import('./items');
    const { THREAD_MAX_CHARACTERS } = await import('./history');
    expect(tokensOf(THREAD_MAX_CHARACTERS)).toBe(THREAD_MAX_TOKENS);
    expect(tokensOf(THREAD_MAX_CHARACTERS + 1)).toBeGreaterThan(THREAD_MAX_TOKENS);
  });
});
