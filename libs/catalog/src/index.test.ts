import catalogJson from './catalog.json';
import {
  BANDS,
  CatalogError,
  DECISION_MODEL_ID,
  LINES,
  TASK_TYPES,
  VIRTUAL_MODEL_IDS,
  blendedPrice,
  catalog,
  earlierRuleCandidates,
  loadCatalog,
  tierRank,
  type ChatModel,
  tierPricing,
  hasPriceTier,
  TIER_PRICE_SHARE,
} from './index';

/** A mutable deep copy of the committed catalog.json, to break on purpose. */
function copy(): any {
  return structuredClone(catalogJson) as any;
}

/** The error message loadCatalog throws for `data`, or '' when it loads. */
function problemsOf(data: unknown): string {
  try {
    loadCatalog(data);
    return '';
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogError);
    return (err as Error).message;
  }
}

const KINDS = TASK_TYPES.filter((t) => t !== 'other');

describe('committed catalog', () => {
  it('loads and validates', () => {
    expect(() => loadCatalog()).not.toThrow();
    expect(problemsOf(catalogJson)).toBe('');
  });

  it('has 8 vendors, 20 to 40 chat models including the decision model, 3 embedding models', () => {
    expect(catalog.vendors.map((v) => v.id)).toEqual(['vendor-1', 'vendor-2', 'vendor-3', 'vendor-4', 'vendor-5', 'vendor-6', 'vendor-7', 'vendor-8']);
    expect(catalog.chatModels.length).toBeGreaterThanOrEqual(20);
    expect(catalog.chatModels.length).toBeLessThanOrEqual(40);
    expect(catalog.chatModel(DECISION_MODEL_ID)).toBeDefined();
    expect(catalog.embeddingModels).toHaveLength(3);
  });

  it('maps vendors to protocols and cache modes', () => {
    const v = (id: string) => catalog.vendor(id)!;
    expect([v('vendor-1').protocol, v('vendor-1').cache]).toEqual(['openai', 'automatic']);
    expect([v('vendor-2').protocol, v('vendor-2').cache]).toEqual(['anthropic', 'explicit']);
    expect([v('vendor-3').protocol, v('vendor-3').cache]).toEqual(['gemini', 'automatic_4096']);
    expect(v('vendor-8').protocol).toBe('openai');
    for (const id of ['vendor-4', 'vendor-5', 'vendor-6', 'vendor-7']) expect(v(id).protocol).toBe('openai');
    expect(['vendor-4', 'vendor-5', 'vendor-6', 'vendor-7'].filter((id) => v(id).cache === 'automatic')).toHaveLength(1);
    for (const vendor of catalog.vendors) {
      expect(vendor.base_url).toBe('');
      expect(vendor.api_key_env).toBe(`VENDOR_${vendor.id.slice('vendor-'.length)}_API_KEY`);
      expect(catalog.chatModels.some((m) => m.vendor === vendor.id)).toBe(true);
    }
  });

  it('has exactly one vendor that does not report embedding tokens, with an embedding model', () => {
    const silent = catalog.vendors.filter((v) => !v.reports_embedding_tokens);
    expect(silent).toHaveLength(1);
    expect(catalog.embeddingModels.some((m) => m.vendor === silent[0]!.id)).toBe(true);
  });

  it('describes the decision model as named only, fast, without tools or skills', () => {
    const decision = catalog.chatModel(DECISION_MODEL_ID)!;
    expect(decision).toMatchObject({ vendor: 'vendor-8', tier: 'fast', named_only: true, skills: {} });
    expect(decision.capabilities.tools).toBe(false);
    expect(decision.upstream_id).toBe('decision-1.13.0');
  });

  it('gives the explicit-cache vendor per-model minimum prefixes from 512 to 4096', () => {
    const prefixes = catalog.chatModels.filter((m) => m.vendor === 'vendor-2').map((m) => m.min_cache_prefix);
    expect(Math.min(...prefixes)).toBeGreaterThanOrEqual(512);
    expect(Math.max(...prefixes)).toBeLessThanOrEqual(4096);
  });

  it('has skill data per kind of work and band that falls with difficulty', () => {
    for (const model of catalog.chatModels) {
      const kinds = Object.keys(model.skills);
      if (kinds.length === 0) continue;
      expect(kinds.sort()).toEqual([...KINDS].sort());
      for (const kind of KINDS) {
        const scores = BANDS.map((band) => model.skills[kind]![band]!);
        for (const s of scores) expect(s).toBeGreaterThanOrEqual(0);
        expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      }
    }
  });

  it('scores stronger tiers higher on average', () => {
    const mean = (tier: string) => {
      const scores = catalog.chatModels
        .filter((m) => m.tier === tier)
        .flatMap((m) => Object.values(m.skills).flatMap((b) => Object.values(b ?? {})));
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    };
    expect(mean('fast')).toBeLessThan(mean('balanced'));
    expect(mean('balanced')).toBeLessThan(mean('powerful'));
    expect(mean('powerful')).toBeLessThan(mean('frontier'));
  });

  it('has a free list of a handful of models across vendors', () => {
    const free = catalog.freeModelIds();
    expect(free.length).toBeGreaterThanOrEqual(4);
    expect(free.length).toBeLessThanOrEqual(6);
    expect(new Set(free.map((id) => id.split('/')[0])).size).toBeGreaterThanOrEqual(4);
    for (const id of free) expect(catalog.model(id)?.free).toBe(true);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(catalog.data)).toBe(true);
    expect(Object.isFrozen(catalog.chatModels[0]!.pricing)).toBe(true);
  });
});

describe('lookups', () => {
  it('finds chat and embedding models by id, undefined when unknown', () => {
    const chat = catalog.chatModels[0]!;
    const embedding = catalog.embeddingModels[0]!;
    expect(catalog.model(chat.id)).toBe(chat);
    expect(catalog.model(embedding.id)).toBe(embedding);
    expect(catalog.chatModel(embedding.id)).toBeUndefined();
    expect(catalog.embeddingModel(chat.id)).toBeUndefined();
    expect(catalog.model('vendor-1/nope')).toBeUndefined();
    expect(catalog.model('auto')).toBeUndefined();
    expect(catalog.vendor('vendor-9')).toBeUndefined();
  });

  it('knows the four virtual ids and their lines', () => {
    expect(VIRTUAL_MODEL_IDS).toEqual(['auto', 'auto/best', 'auto/balanced', 'auto/cheap']);
    for (const id of VIRTUAL_MODEL_IDS) expect(catalog.isVirtual(id)).toBe(true);
    for (const id of ['auto/fast', 'Auto', 'auto%2Fcheap', DECISION_MODEL_ID, '']) expect(catalog.isVirtual(id)).toBe(false);
    expect(LINES).toEqual({ auto: 'auto', 'auto/best': 'best', 'auto/balanced': 'balanced', 'auto/cheap': 'cheap' });
  });
});

describe('auto eligibility', () => {
  const curveIds = new Set(catalog.earlierRuleCurve().map((m) => m.id));
  const skilled = (m: ChatModel) => Object.keys(m.skills).length > 0;

  it('includes every model with skill data that is not named only', () => {
    for (const m of catalog.chatModels) {
      if (skilled(m) && !m.named_only) expect(catalog.isAutoEligible(m.id)).toBe(true);
    }
  });

  it('excludes named-only models, the decision model among them', () => {
    const named = catalog.chatModels.filter((m) => m.named_only).map((m) => m.id);
    expect(named.length).toBeGreaterThanOrEqual(1);
    expect(named.length).toBeLessThanOrEqual(2);
    expect(named).toContain(DECISION_MODEL_ID);
    for (const id of named) expect(catalog.autoEligibleIds()).not.toContain(id);
  });

  it('reaches the cheap models without skill data through the earlier rule', () => {
    const bare = catalog.chatModels.filter((m) => !skilled(m) && !m.named_only);
    expect(bare.length).toBeGreaterThanOrEqual(2);
    expect(bare.length).toBeLessThanOrEqual(3);
    for (const m of bare) {
      expect(curveIds.has(m.id)).toBe(true);
      expect(catalog.isAutoEligible(m.id)).toBe(true);
    }
  });

  it('lists only models with skill data or a place on the curve, in catalog order', () => {
    const ids = catalog.autoEligibleIds();
    for (const id of ids) {
      const m = catalog.chatModel(id)!;
      expect(skilled(m) || curveIds.has(id)).toBe(true);
    }
    const order = catalog.chatModels.map((m) => m.id).filter((id) => ids.includes(id));
    expect(ids).toEqual(order);
    expect(catalog.embeddingModels.some((m) => ids.includes(m.id))).toBe(false);
  });

  it('drops a model without skill data that a cheaper model covers', () => {
    const data = copy();
    const dominated = catalog.chatModels.find((m) => skilled(m) && !m.named_only && !curveIds.has(m.id))!;
    expect(dominated).toBeDefined();
    data.models.find((m: any) => m.id === dominated.id).skills = {};
    expect(loadCatalog(data).isAutoEligible(dominated.id)).toBe(false);
  });
});

describe('earlierRuleCandidates', () => {
  const base = catalog.chatModel('vendor-1/orion-mini-5')!;
  const make = (id: string, input: number, output: number, over: Partial<ChatModel> = {}, caps: Partial<ChatModel['capabilities']> = {}): ChatModel =>
    ({ ...base, id, pricing: { ...base.pricing, input, output }, ...over, capabilities: { ...base.capabilities, ...caps } }) as ChatModel;

  it('keeps the curve sorted by blended price, cheapest first', () => {
    const curve = catalog.earlierRuleCurve();
    const prices = curve.map((m) => blendedPrice(m.pricing));
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
    expect(blendedPrice({ input: 1, output: 3, cache_read: 0, cache_write: 0 })).toBe(2.5);
  });

  it('drops a model when a cheaper one has an equal or higher tier and equal or wider capabilities', () => {
    const cheap = make('vendor-1/a', 0.1, 0.4, { tier: 'balanced' });
    const dear = make('vendor-1/b', 1, 4, { tier: 'balanced' });
    expect(earlierRuleCandidates([dear, cheap]).map((m) => m.id)).toEqual(['vendor-1/a']);
  });

  it('keeps a dearer model of a higher tier or with a wider capability', () => {
    const cheap = make('vendor-1/a', 0.1, 0.4, { tier: 'balanced' }, { vision: false });
    const higherTier = make('vendor-1/b', 1, 4, { tier: 'powerful' }, { vision: false });
    const withVision = make('vendor-1/c', 1, 4, { tier: 'balanced' }, { vision: true });
    const longer = make('vendor-1/d', 1, 4, { tier: 'balanced' }, { vision: false, context_window: 10_000_000 });
    expect(earlierRuleCandidates([longer, withVision, higherTier, cheap]).map((m) => m.id)).toEqual([
      'vendor-1/a',
      'vendor-1/b',
      'vendor-1/c',
      'vendor-1/d',
    ]);
  });

  it('ignores named-only models', () => {
    const named = make('vendor-1/a', 0.01, 0.01, { named_only: true, tier: 'frontier' });
    const other = make('vendor-1/b', 1, 4);
    expect(earlierRuleCandidates([named, other]).map((m) => m.id)).toEqual(['vendor-1/b']);
  });

  it('orders tiers fast < balanced < powerful < frontier', () => {
    expect(['fast', 'balanced', 'powerful', 'frontier'].map((t) => tierRank(t as ChatModel['tier']))).toEqual([0, 1, 2, 3]);
  });
});

describe('cross checks', () => {
  const model = (data: any, id: string) => data.models.find((m: any) => m.id === id);
  const firstOf = (data: any, vendor: string) => data.models.find((m: any) => m.vendor === vendor && m.id !== DECISION_MODEL_ID);

  it('rejects a duplicate model id', () => {
    const data = copy();
    data.models[1].id = data.models[0].id;
    expect(problemsOf(data)).toMatch(`model ${data.models[0].id}: duplicate model id`);
  });

  it('rejects a model id shared by a chat and an embedding model', () => {
    const data = copy();
    data.embedding_models[0].id = data.models[0].id;
    data.embedding_models[0].vendor = data.models[0].vendor;
    expect(problemsOf(data)).toMatch('duplicate model id');
  });

  it('rejects a model whose vendor is not in the vendor list', () => {
    const data = copy();
    data.vendors[2].id = 'vendor-2';
    const message = problemsOf(data);
    expect(message).toMatch('vendor vendor-2: duplicate vendor id');
    expect(message).toMatch(/model vendor-3\/\S+: vendor vendor-3 does not exist/);
  });

  it('rejects an id whose prefix is not the vendor', () => {
    const data = copy();
    const m = firstOf(data, 'vendor-4');
    m.vendor = 'vendor-6';
    expect(problemsOf(data)).toMatch(`model ${m.id}: id prefix does not match vendor vendor-6`);
  });

  it('rejects cache prices that do not follow the explicit-cache vendor', () => {
    const data = copy();
    const m = firstOf(data, 'vendor-2');
    m.pricing.cache_write = m.pricing.input;
    expect(problemsOf(data)).toMatch(`model ${m.id}: cache_write ${m.pricing.input} must be 1.25 x input`);
    m.pricing.cache_write = m.pricing.input * 1.25;
    m.pricing.cache_read = m.pricing.input * 0.5;
    expect(problemsOf(data)).toMatch(/must be 0.1 x input/);
  });

  it('rejects a write premium or an undiscounted read on an automatic-cache vendor', () => {
    const data = copy();
    const m = firstOf(data, 'vendor-3');
    m.pricing.cache_write = m.pricing.input * 1.25;
    expect(problemsOf(data)).toMatch(`model ${m.id}: cache_write ${m.pricing.cache_write} must equal input (${m.pricing.input}) on an automatic-cache vendor (no write charge)`);
    m.pricing.cache_write = m.pricing.input;
    m.pricing.cache_read = m.pricing.input;
    expect(problemsOf(data)).toMatch(/must be between 0.1 and 0.5 x input/);
  });

  it('rejects a cache discount on a vendor without prompt cache', () => {
    const data = copy();
    const m = firstOf(data, 'vendor-4');
    m.pricing.cache_read = m.pricing.input / 2;
    expect(problemsOf(data)).toMatch(`model ${m.id}: cache_read and cache_write must equal input (${m.pricing.input}) on a vendor without prompt cache`);
  });

  it('rejects a minimum cache prefix outside the vendor mode', () => {
    const data = copy();
    const explicit = firstOf(data, 'vendor-2');
    explicit.min_cache_prefix = 256;
    const gemini = firstOf(data, 'vendor-3');
    gemini.min_cache_prefix = 1024;
    const message = problemsOf(data);
    expect(message).toMatch(`model ${explicit.id}: min_cache_prefix 256 must be 512 to 4096`);
    expect(message).toMatch(`model ${gemini.id}: min_cache_prefix 1024 must be 4096`);
  });

  it('rejects a catalog without the decision model, or with it open to auto', () => {
    const without = copy();
    without.models = without.models.filter((m: any) => m.id !== DECISION_MODEL_ID);
    expect(problemsOf(without)).toMatch(`decision model ${DECISION_MODEL_ID} is missing`);
    const open = copy();
    model(open, DECISION_MODEL_ID).named_only = false;
    expect(problemsOf(open)).toMatch(`decision model ${DECISION_MODEL_ID} must be named_only`);
  });

  it('rejects a catalog without exactly 3 embedding models', () => {
    const data = copy();
    data.embedding_models.pop();
    expect(problemsOf(data)).toMatch(/embedding_models: .*3/);
  });

  it('rejects a catalog without free models', () => {
    const data = copy();
    for (const m of [...data.models, ...data.embedding_models]) m.free = false;
    expect(problemsOf(data)).toMatch('no free models');
  });

  it('rejects a skills key for kind other or an unknown kind', () => {
    const data = copy();
    const m = data.models.find((x: any) => Object.keys(x.skills).length > 0);
    m.skills.other = { easy: 0.5 };
    m.skills['code:cobol'] = { easy: 0.5 };
    const message = problemsOf(data);
    expect(message).toMatch(`model ${m.id}: skills key "other" is not allowed`);
    expect(message).toMatch(`model ${m.id}: skills key "code:cobol" is not a known kind of work`);
  });

  it('reports schema problems with their path', () => {
    const data = copy();
    data.models[0].tier = 'huge';
    delete data.vendors[0].api_key_env;
    const message = problemsOf(data);
    expect(message).toMatch(/^invalid catalog \(2 problems\):/);
    expect(message).toMatch('- models.0.tier: ');
    expect(message).toMatch('- vendors.0.api_key_env: ');
  });

  it('lists every problem at once', () => {
    const data = copy();
    data.models[1].id = data.models[0].id;
    data.models = data.models.filter((m: any) => m.id !== DECISION_MODEL_ID);
    for (const m of [...data.models, ...data.embedding_models]) m.free = false;
    try {
      loadCatalog(data);
      throw new Error('loaded');
    } catch (err) {
      expect(err).toBeInstanceOf(CatalogError);
      expect((err as CatalogError).problems).toHaveLength(3);
    }
  });
});

describe('exportDocument', () => {
  const doc = catalog.exportDocument();

  it('holds the model tables without api_key_env', () => {
    expect(JSON.stringify(doc)).not.toContain('api_key_env');
    expect(doc.vendors).toHaveLength(8);
    for (const v of doc.vendors) expect(v).not.toHaveProperty('api_key_env');
    expect(doc.models.map((m) => m.id)).toEqual(catalog.chatModels.map((m) => m.id));
    expect(doc.embedding_models.map((m) => m.id)).toEqual(catalog.embeddingModels.map((m) => m.id));
    expect(doc.skills_as_of).toBe(catalog.data.skills_as_of);
    expect(doc.object).toBe('catalog_export');
  });

  it('marks auto-eligible models as the auto-model list does', () => {
    expect(doc.models.filter((m) => m.auto_eligible).map((m) => m.id)).toEqual(catalog.autoEligibleIds());
  });

  it('is a copy the caller may change', () => {
    const mine = catalog.exportDocument();
    mine.models[0]!.pricing.input = 999;
    expect(catalog.chatModels[0]!.pricing.input).not.toBe(999);
  });
});

describe('price tiers', () => {
  it('gives flex and batch prices exactly where the catalog says the model has the tier, at half of every rate', () => {
    for (const model of catalog.chatModels) {
      expect(tierPricing(model, 'standard')).toEqual(model.pricing);
      for (const tier of ['flex', 'batch'] as const) {
        const price = tierPricing(model, tier);
        expect(hasPriceTier(model, tier)).toBe(model[tier]);
        if (!model[tier]) {
          expect(price).toBeUndefined();
          continue;
        }
        for (const rate of ['input', 'output', 'cache_read', 'cache_write'] as const) {
          expect(price![rate] * 1_000_000).toBeCloseTo(model.pricing[rate] * TIER_PRICE_SHARE[tier] * 1_000_000, 6);
          // Held exactly by libs/pricing (whole pico-USD per token).
          expect(Number.isInteger(Math.round(price![rate] * 1e6 * 1e3) / 1e3)).toBe(true);
        }
      }
    }
  });

  it('has the three wire protocols batch models and flex on the OpenAI and Gemini protocols only', () => {
    const protocolOf = (model: { vendor: string }) => catalog.vendor(model.vendor as never)?.protocol;
    const flexProtocols = new Set(catalog.chatModels.filter((m) => m.flex).map(protocolOf));
    expect(flexProtocols.has('anthropic')).toBe(false);
    expect(new Set(catalog.chatModels.filter((m) => m.batch).map(protocolOf))).toEqual(new Set(['openai', 'anthropic', 'gemini']));
  });
});
