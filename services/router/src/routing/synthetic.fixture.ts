import { catalog as realCatalog, loadCatalog, type Catalog } from '@svc/catalog';
import type { RouteRequest__Output } from '@svc/protos';
import type { Classification, ClassifyInput } from '../classifier';
import type { SessionState, SessionStore } from './sessions';

/**
 * A small synthetic catalog for table-driven routing tests. Input and output prices are equal,
 * so the blended price is the price. Skill data only for `summarization` (all bands) and
 * `math` (hard band, one model).
 *
 * | model  | vendor (cache)       | tier     | price | free | vision tools json ctx      | summarization e/m/h/f   |
 * |--------|----------------------|----------|-------|------|----------------------------|-------------------------|
 * | A      | vendor-4 (none)      | fast     | 0.1   | yes  | -      yes   -    32k      | .85 .55 .20 .05         |
 * | B      | vendor-4 (none)      | fast     | 0.2   | yes  | -      yes   yes  128k     | .90 .65 .30 .10         |
 * | G      | vendor-5 (automatic) | fast     | 0.3   | no   | yes    yes   yes  64k      | (none)                  |
 * | H      | vendor-4 (none)      | fast     | 0.4   | no   | -      yes   -    32k      | (none; off the curve)   |
 * | C      | vendor-1 (automatic) | balanced | 0.5   | no   | yes    yes   yes  200k     | .93 .75 .45 .15         |
 * | D      | vendor-1 (automatic) | powerful | 1     | no   | yes    yes   yes  200k     | .96 .85 .60 .25         |
 * | E      | vendor-4 (none)      | powerful | 3     | no   | yes    yes   yes  400k     | .98 .92 .75 .40         |
 * | F      | vendor-4 (none)      | frontier | 10    | no   | yes    yes   yes  1M       | .99 .97 .88 .60; math hard .90 |
 *
 * The earlier rule's curve is A, B, G, C, D, E, F (H is dominated by A: not auto-eligible).
 * Eleven named-only models pad the catalog to the schema's minimum size.
 */
export const M = {
  A: 'vendor-4/a-tiny',
  B: 'vendor-4/b-small',
  G: 'vendor-5/g-plain',
  H: 'vendor-4/h-old',
  C: 'vendor-1/c-mid',
  D: 'vendor-1/d-large',
  E: 'vendor-4/e-pro',
  F: 'vendor-4/f-max',
} as const;

type Caps = [vision: boolean, tools: boolean, json: boolean, context: number];

function model(id: string, tier: string, price: number, free: boolean, caps: Caps, skills: Record<string, Record<string, number>>, cacheRead = price) {
  const vendor = id.split('/')[0];
  return {
    id,
    vendor,
    upstream_id: id.split('/')[1],
    kind: 'chat',
    tier,
    pricing: { input: price, output: price, cache_read: cacheRead, cache_write: price },
    capabilities: { vision: caps[0], tools: caps[1], json_schema: caps[2], context_window: caps[3], max_output: 8000 },
    reasoning: { kind: 'none' },
    flex: false,
    batch: false,
    residency: 'global',
    location: 'us-east',
    free,
    skills,
  };
}

const summarization = (easy: number, medium: number, hard: number, frontier: number) => ({ summarization: { easy, medium, hard, frontier } });

export function syntheticCatalog(): Catalog {
  const data = structuredClone(realCatalog.data) as unknown as Record<string, unknown>;
  const decision = realCatalog.chatModel('vendor-8/decision-1.13.0');
  const padding = Array.from({ length: 11 }, (_, i) => ({ ...model(`vendor-8/pad-${i + 1}`, 'fast', 1, false, [false, true, true, 32000], {}), named_only: true }));
  data.models = [
    model(M.A, 'fast', 0.1, true, [false, true, false, 32000], summarization(0.85, 0.55, 0.2, 0.05)),
    model(M.B, 'fast', 0.2, true, [false, true, true, 128000], summarization(0.9, 0.65, 0.3, 0.1)),
    model(M.G, 'fast', 0.3, false, [true, true, true, 64000], {}, 0.03),
    model(M.H, 'fast', 0.4, false, [false, true, false, 32000], {}),
    model(M.C, 'balanced', 0.5, false, [true, true, true, 200000], summarization(0.93, 0.75, 0.45, 0.15), 0.05),
    model(M.D, 'powerful', 1, false, [true, true, true, 200000], summarization(0.96, 0.85, 0.6, 0.25), 0.1),
    model(M.E, 'powerful', 3, false, [true, true, true, 400000], summarization(0.98, 0.92, 0.75, 0.4)),
    model(M.F, 'frontier', 10, false, [true, true, true, 1000000], { ...summarization(0.99, 0.97, 0.88, 0.6), math: { hard: 0.9 } }),
    decision,
    ...padding,
  ];
  return loadCatalog(data);
}

/**
 * A classifier stand-in: reads the last user message as `<task> d<difficulty> [high] [c<confidence>]`
 * (e.g. `summarization d3 high c0.3`); anything else is casual conversation, difficulty 1.
 */
export function scriptedClassifier(): { classify: jest.Mock<Classification, [ClassifyInput]>; meta: Record<string, unknown> } {
  const classify = jest.fn((input: ClassifyInput): Classification => {
    const user = [...input.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    const match = /^(\S+) d([1-5])(?: (high))?(?: c([\d.]+))?/.exec(user);
    if (!match) return { taskType: 'conversational_reply', difficulty: 1, stakes: 'normal', confidence: 0.9, reason: 'Looks like casual conversation.' };
    return {
      taskType: match[1],
      difficulty: Number(match[2]) as Classification['difficulty'],
      stakes: match[3] ? 'high' : 'normal',
      confidence: match[4] ? Number(match[4]) : 0.9,
      reason: `Looks like ${match[1]}.`,
    };
  });
  return { classify, meta: { corpus_sha256: 'feedface00000000' } };
}

export const baseRequest: RouteRequest__Output = {
  organization_id: 'org_1',
  key_id: 'key_1',
  model: 'auto',
  access: { account_disabled: [], organization_disabled: [], project_disabled: [], key_allowed: [] },
  vendors: [],
  needs: { tools: false, vision: false, json_schema: false, input_tokens: 10 },
  fallback: 'cross_vendor',
  session_id: '',
  system_prompt: '',
  messages: [],
  free_plan: false,
  reasoning_effort: '',
  escalated_from: '',
};

export function requestFor(overrides: Partial<RouteRequest__Output> & { user?: string }): RouteRequest__Output {
  const { user, ...rest } = overrides;
  return { ...baseRequest, ...(user !== undefined ? { messages: [{ role: 'user', text: user }] } : {}), ...rest };
}

/** A session store in memory, with the same JSON round trip as the Redis one. */
export function memoryStore(): SessionStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    async read(key) {
      const raw = data.get(key);
      return raw ? (JSON.parse(raw) as SessionState) : undefined;
    },
    async write(key, state) {
      data.set(key, JSON.stringify(state));
    },
  };
}
