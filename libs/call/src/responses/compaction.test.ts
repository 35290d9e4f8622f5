import { catalog } from '@svc/catalog';
import { KEEP_RECENT_ITEMS, contextWindowFor, itemTokens, planCompaction } from './compaction';
import type { HistoryItem } from './history';

const note = (id: string, chars: number): HistoryItem => ({ type: 'message', id, role: 'user', content: [{ type: 'input_text', text: 'x'.repeat(chars) }] });

describe('contextWindowFor', () => {
  it("a named model's window; under auto the largest routing may pick", () => {
    expect(contextWindowFor(catalog, 'vendor-4/atlas-3.1-8b')).toBe(131072);
    expect(contextWindowFor(catalog, 'auto')).toBe(Math.max(...catalog.chatModels.filter((model) => !model.named_only).map((model) => model.capabilities.context_window)));
  });
});

describe('planCompaction', () => {
  it('replaces the oldest items until the rest fits, keeping the recent ones verbatim', () => {
    const items = Array.from({ length: 10 }, (_, index) => note(`msg_${index}`, 4000));
    const plan = planCompaction(items, 4 * itemTokens(items[0]))!;
    expect(plan.replaces).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5']);
    expect(plan.remainingTokens).toBe(4 * itemTokens(items[0]));
    expect(plan.removedTokens).toBe(6 * itemTokens(items[0]));
    expect(plan.transcript).toMatch(/^user: x+/);
  });

  it(`never replaces the last ${KEEP_RECENT_ITEMS} items, nor the whole history`, () => {
    const items = Array.from({ length: 6 }, (_, index) => note(`msg_${index}`, 4000));
    expect(planCompaction(items, 0)!.replaces).toEqual(['msg_0', 'msg_1']);
    expect(planCompaction(items.slice(0, KEEP_RECENT_ITEMS), 0)).toBeUndefined();
  });

  it('keeps a tool call with its output', () => {
    const items: HistoryItem[] = [
      note('msg_0', 4000),
      { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'get', arguments: '{}' },
      { type: 'function_call_output', id: 'fco_2', call_id: 'c1', output: 'sunny' },
      note('msg_3', 4000),
      note('msg_4', 10),
      note('msg_5', 10),
      note('msg_6', 10),
      note('msg_7', 10),
    ];
    // Enough room once msg_0 and the call are gone: the cut falls between the call and its output.
    const target = items.slice(2).reduce((sum, item) => sum + itemTokens(item), 0);
    expect(planCompaction(items, target)!.replaces).toEqual(['msg_0', 'fc_1', 'fco_2']);
  });
});
