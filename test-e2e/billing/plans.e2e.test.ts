import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import OpenAI, { APIError } from 'openai';
import { catalog } from '@svc/catalog';
import { admin, fleetState, newOrganization } from '../support/fleet-state';

// Spec: svc.cost and the baseline rules, svc.plan, the Free plan limits and headers, spend limits
// (429 quota_exceeded with the x-svc-quota-* headers) and 402 for a person's second organization,
// through the whole fleet with the openai SDK.

const FREE_MODEL = 'vendor-1/orion-nano-5';
const PAID_MODEL = 'vendor-1/orion-mini-5';
const ROOT = join(__dirname, '..', '..');

interface SvcCost {
  vendor_micros: number;
  service_fee_micros: number;
  call_fee_micros: number;
  savings_fee_micros: number;
  classifier_micros: number;
  direct_micros: number;
  saved_micros?: number;
  baseline?: { pending: boolean; model?: string; calls?: number; calls_needed?: number };
}
interface Svc {
  model_served: string;
  cost_micros: number;
  cost: SvcCost;
  plan?: { tier: string; reason: string; paid_would_use?: string; topup_url: string };
}
interface ErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string;
}
type Outcome = { status: number; headers: Headers; svc?: Svc; usage?: OpenAI.CompletionUsage; error?: ErrorBody };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function clientFor(apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: fleetState().baseUrl, maxRetries: 0 });
}

async function call(client: OpenAI, body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>): Promise<Outcome> {
  try {
    const { data, response } = await client.chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: 'Say hello.' }], ...body }).withResponse();
    return { status: 200, headers: response.headers, svc: (data as unknown as { svc: Svc }).svc, ...(data.usage ? { usage: data.usage } : {}) };
  } catch (error) {
    if (error instanceof APIError && error.status !== undefined && error.headers) return { status: error.status, headers: error.headers, error: error.error as ErrorBody };
    throw error;
  }
}

/** Waits until the next UTC minute when fewer than `seconds` are left in this one (the Free minute is a fixed window). */
async function roomInMinute(seconds: number): Promise<void> {
  const left = 60 - new Date().getUTCSeconds();
  if (left < seconds) await sleep(left * 1000 + 200);
}

describe('the Free plan through the API', () => {
  const free = newOrganization({ plan: 'free', credit: '0' });
  const client = clientFor(free.apiKey);

  it('serves a free model at no charge with svc.plan, x-svc-plan and the Free minute and day headers', async () => {
    await roomInMinute(10);
    const result = await call(client, { model: FREE_MODEL });
    expect(result.status).toBe(200);
    expect(result.svc!.plan).toEqual({ tier: 'free', reason: 'free_plan', topup_url: 'https://svc.example.com/billing/top-up' });
    expect(result.svc!.cost_micros).toBe(0);
    expect(result.svc!.cost).toMatchObject({ service_fee_micros: 0, call_fee_micros: 0, savings_fee_micros: 0, classifier_micros: 0 });
    expect(result.headers.get('x-svc-plan')).toBe('free');
    expect(result.headers.get('x-ratelimit-limit-requests')).toBe('20');
    expect(result.headers.get('x-ratelimit-remaining-requests')).toBe('19');
    expect(result.headers.get('x-ratelimit-limit-requests-day')).toBe('100');
    expect(result.headers.get('x-ratelimit-remaining-requests-day')).toBe('99');
    expect(result.headers.get('x-ratelimit-reset-requests-day')).toMatch(/^\d+(\.\d+)?s$/);
    // The token bucket headers are the key's own.
    expect(result.headers.get('x-ratelimit-limit-tokens')).toBe('200000');
  });

  it('refusals before admission (a bad body, an unknown model) carry the Free minute and day headers too', async () => {
    const bad = await fetch(`${fleetState().baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${free.apiKey}`, 'content-type': 'application/json' }, body: '{bad' });
    const unknown = await call(client, { model: 'vendor-9/nope' });
    for (const [status, headers] of [[bad.status, bad.headers], [unknown.status, unknown.headers]] as const) {
      expect([400, 404]).toContain(status);
      expect(headers.get('x-svc-plan')).toBe('free');
      expect(headers.get('x-ratelimit-limit-requests')).toBe('20');
      expect(headers.get('x-ratelimit-limit-requests-day')).toBe('100');
      expect(Number(headers.get('x-ratelimit-remaining-requests-day'))).toBeLessThanOrEqual(100);
    }
  });

  it('refuses a named model outside the free list with 403 free_tier_model; auto picks among free models', async () => {
    const refused = await call(client, { model: PAID_MODEL });
    expect(refused.status).toBe(403);
    expect(refused.error).toEqual({ message: expect.stringContaining(PAID_MODEL), type: 'permission_error', param: 'model', code: 'free_tier_model' });
    expect(refused.headers.get('x-svc-plan')).toBe('free');
    expect(refused.headers.get('x-ratelimit-limit-requests-day')).toBe('100');

    const auto = await call(client, { model: 'auto', messages: [{ role: 'user', content: 'Prove that the square root of 2 is irrational, step by step, rigorously.' }] });
    expect(auto.status).toBe(200);
    expect(catalog.chatModel(auto.svc!.model_served)?.free).toBe(true);
    expect(auto.svc!.plan).toMatchObject({ tier: 'free', reason: 'free_plan' });
    if (auto.svc!.plan!.paid_would_use) expect(auto.svc!.plan!.paid_would_use).not.toBe(auto.svc!.model_served);
  });

  it('refuses max_tokens over 2000 and input over 16000 tokens with 429 free_tier_limit, param and x-svc-free-limit, no Retry-After', async () => {
    const tooLong = await call(client, { model: FREE_MODEL, max_tokens: 2001 });
    expect(tooLong.status).toBe(429);
    expect(tooLong.error).toMatchObject({ type: 'rate_limit_error', param: 'max_tokens', code: 'free_tier_limit' });
    expect(tooLong.headers.get('x-svc-free-limit')).toBe('max_tokens');
    expect(tooLong.headers.get('retry-after')).toBeNull();
    const bigInput = await call(client, { model: FREE_MODEL, messages: [{ role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(4000) }] });
    expect(bigInput.status).toBe(429);
    expect(bigInput.error).toMatchObject({ param: 'input_tokens', code: 'free_tier_limit' });
    expect(bigInput.headers.get('x-svc-free-limit')).toBe('input_tokens');
    expect(bigInput.headers.get('retry-after')).toBeNull();
  });

  it('counts the 16000 input tokens with a tokenizer, not characters / 4: 15,999 words served, 16,001 single letters refused', async () => {
    const words = (n: number, word: string) => Array.from({ length: n }, () => word).join(' ');
    // 80,000 characters (an estimate of 20,000 tokens), 15,999 tokens.
    const under = await call(client, { model: FREE_MODEL, max_tokens: 5, messages: [{ role: 'user', content: words(15_999, 'word') }] });
    expect(under.status).toBe(200);
    expect(under.usage?.prompt_tokens).toBe(15_999);
    // 32,001 characters (an estimate of 8,001 tokens), 16,001 tokens.
    const over = await call(client, { model: FREE_MODEL, max_tokens: 5, messages: [{ role: 'user', content: words(16_001, 'a') }] });
    expect(over.status).toBe(429);
    expect(over.error).toMatchObject({ param: 'input_tokens', code: 'free_tier_limit' });
  });

  it('allows 20 requests a minute, then 429 requests_per_minute with Retry-After', async () => {
    const other = newOrganization({ plan: 'free', credit: '0' });
    const otherClient = clientFor(other.apiKey);
    await roomInMinute(8); // 21 calls take about a second; the Free minute is the UTC minute
    for (let i = 0; i < 20; i += 1) expect((await call(otherClient, { model: FREE_MODEL, max_tokens: 5 })).status).toBe(200);
    const refused = await call(otherClient, { model: FREE_MODEL, max_tokens: 5 });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ param: 'requests_per_minute', code: 'free_tier_limit' });
    expect(refused.headers.get('x-svc-free-limit')).toBe('requests_per_minute');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });

  it('caps the Free plan at two API keys and one member until the first top-up (403 free_tier_limit from the admin CLI)', () => {
    admin('key', 'create', '--org', free.organizationId);
    const refuse = (...args: string[]) => {
      try {
        execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...fleetState().env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        return JSON.parse(String((error as { stdout: string }).stdout).trim()) as { error: ErrorBody };
      }
      throw new Error('expected a refusal');
    };
    expect(refuse('key', 'create', '--org', free.organizationId)).toEqual({ error: { message: 'The Free plan allows 2 API keys until the first top-up.', type: 'permission_error', param: 'api_keys', code: 'free_tier_limit' } });
    expect(refuse('member', 'add', '--org', free.organizationId, '--email', `second-${randomBytes(3).toString('hex')}@svctest.local`).error).toMatchObject({ param: 'members', code: 'free_tier_limit' });
  });
});

describe('zero balance, second organizations and spend limits', () => {
  it('continues a paid organization at zero on the Free limits (reason zero_balance)', async () => {
    const org = newOrganization({ credit: '0' });
    const result = await call(clientFor(org.apiKey), { model: FREE_MODEL });
    expect(result.status).toBe(200);
    expect(result.svc!.plan).toMatchObject({ tier: 'free', reason: 'zero_balance' });
    expect(result.headers.get('x-svc-balance-micros')).toBe('0');
    // Under auto it is routed again among the Free models; the first message of a session is still its first.
    const client = clientFor(org.apiKey);
    const session = `zero-${randomBytes(4).toString('hex')}`;
    const first = await call(client, { messages: [{ role: 'user', content: `Explain briefly what a heap is. ${session}` }], svc: { session_id: session } } as never);
    expect(first.status).toBe(200);
    expect(first.svc!.routing).toMatchObject({ trigger: 'no_prior_decision' });
    const again = await call(client, { messages: [{ role: 'user', content: `Explain briefly what a heap is. ${session}` }], svc: { session_id: session } } as never);
    expect(again.svc!.routing).toMatchObject({ trigger: 'cache_hit' });
  });

  it('refuses a person’s second organization at zero with 402 insufficient_credits (no Free allowance)', async () => {
    const email = `e2e-person-${randomBytes(4).toString('hex')}@svctest.local`;
    admin('org', 'create', '--name', 'first', '--email', email, '--plan', 'free');
    const second = admin<{ organization_id: string }>('org', 'create', '--name', 'second', '--email', email, '--plan', 'paid');
    const key = admin<{ key: string }>('key', 'create', '--org', second.organization_id);
    const result = await call(clientFor(key.key), { model: FREE_MODEL });
    expect(result.status).toBe(402);
    expect(result.error).toMatchObject({ type: 'billing_error', code: 'insufficient_credits' });
    expect(result.headers.get('x-svc-balance-micros')).toBe('0');
  });

  it('reports the key’s spend limit on admitted calls and refuses at the limit with 429 quota_exceeded', async () => {
    const org = newOrganization({ keyFlags: ['--spend-limit', '30', '--spend-period', 'day'] });
    const client = clientFor(org.apiKey);
    const first = await call(client, { model: PAID_MODEL, max_tokens: 50 });
    expect(first.status).toBe(200);
    expect([first.headers.get('x-svc-quota-scope'), first.headers.get('x-svc-quota-limit'), first.headers.get('x-svc-quota-remaining')]).toEqual(['key', '30', '30']);
    expect(first.svc!.cost_micros).toBeGreaterThan(30);
    // Settlement is asynchronous (queue → ledger): until the first call has settled, its cost is
    // held in flight and a refusal says so (Retry-After 1); then the limit is reached.
    let refused: Outcome | undefined;
    for (let i = 0; i < 50 && !refused; i += 1) {
      const next = await call(client, { model: PAID_MODEL, max_tokens: 5 });
      if (next.status === 429 && next.error!.message.includes('in flight')) expect(next.headers.get('retry-after')).toBe('1');
      else if (next.status === 429) refused = next;
      if (!refused) await sleep(100);
    }
    expect(refused?.error).toMatchObject({ type: 'rate_limit_error', code: 'quota_exceeded' });
    const tomorrow = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000).toISOString().replace('.000Z', 'Z');
    expect(refused!.error!.message).toContain(`It resets at ${tomorrow}.`);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect([refused!.headers.get('x-svc-quota-scope'), refused!.headers.get('x-svc-quota-limit'), refused!.headers.get('x-svc-quota-remaining')]).toEqual(['key', '30', '0']);
  });
});

describe('spend limits and a client calling one after another', () => {
  it('an answered call counts at its cost, not its estimate: calls are refused only once what they cost reaches the limit', async () => {
    const org = newOrganization({ keyFlags: ['--spend-limit', '10', '--spend-period', 'day'] });
    const client = clientFor(org.apiKey);
    const costs: number[] = [];
    let refused: Outcome | undefined;
    for (let i = 0; i < 20 && !refused; i += 1) {
      const next = await call(client, { model: 'vendor-1/orion-nano-5', max_tokens: 50 });
      if (next.status === 200) costs.push(next.svc!.cost_micros);
      else refused = next;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.error?.code).toBe('quota_exceeded');
    // Each call's estimate (max_tokens 50) is above the 10-micro limit; what they cost is not.
    expect(costs.length).toBeGreaterThanOrEqual(2);
    expect(costs.reduce((sum, cost) => sum + cost, 0)).toBeGreaterThanOrEqual(10);
  });
});

describe('svc.cost and the baseline', () => {
  it('a named model: direct is the provider price, saved = direct − cost', async () => {
    const org = newOrganization();
    const result = await call(clientFor(org.apiKey), { model: PAID_MODEL });
    const cost = result.svc!.cost;
    expect(cost.direct_micros).toBe(cost.vendor_micros);
    expect(cost.saved_micros).toBe(cost.direct_micros - result.svc!.cost_micros);
    expect(result.svc!.cost_micros).toBe(cost.vendor_micros + cost.service_fee_micros + cost.call_fee_micros);
    expect(cost.baseline).toBeUndefined();
  });

  it('auto: pending for the first 20 answered calls (no saving), then the baseline model and saved_micros', async () => {
    const org = newOrganization();
    const client = clientFor(org.apiKey);
    const first = await call(client, { model: 'auto' });
    expect(first.svc!.cost.baseline).toEqual({ pending: true, calls: 0, calls_needed: 20 });
    expect(first.svc!.cost.saved_micros).toBeUndefined();
    expect(first.svc!.cost.direct_micros).toBe(first.svc!.cost_micros);
    expect(first.svc!.cost.call_fee_micros).toBe(catalog.data.auto_call_fee_micros);
    for (let i = 0; i < 19; i += 1) expect((await call(client, { model: PAID_MODEL, max_tokens: 20 })).status).toBe(200);
    // The 20th answered call settles asynchronously and computes the key's baseline at once.
    let ready: Outcome | undefined;
    for (let i = 0; i < 50 && !ready; i += 1) {
      const next = await call(client, { model: 'auto' });
      if (next.svc!.cost.baseline?.pending === false) ready = next;
      else await sleep(100);
    }
    const cost = ready!.svc!.cost;
    expect(cost.baseline).toEqual({ pending: false, model: PAID_MODEL });
    expect(cost.saved_micros).toBe(cost.direct_micros - ready!.svc!.cost_micros);
    expect(cost.direct_micros).toBeGreaterThan(0);
  });
});
