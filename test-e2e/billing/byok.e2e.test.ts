import { randomBytes } from 'node:crypto';
import OpenAI, { APIError } from 'openai';
import { catalog } from '@svc/catalog';
import { listPriceMicros } from '@svc/pricing';
import { admin, fleetState } from '../support/fleet-state';

// Spec, Billing rule 8 (BYOK), through the whole fleet: an organization at zero credit that stops
// at zero calls a named model on its own vendor key (set with `admin byok set`). vendor-1 speaks
// the openai protocol; the vendor simulator accepts any key except sim-bad-key (401 there).

const MODEL = 'vendor-1/orion-mini-5';
const VENDOR = 'vendor-1';
const BAD_KEY = 'sim-bad-key';
/** Admin changes reach the edges through key invalidation events; allow them this long. */
const PROPAGATION_MS = 5_000;

interface Svc {
  vendor: string;
  model_served: string;
  attempts: number;
  byok?: boolean;
  cost_micros: number;
  cost: { vendor_micros: number; service_fee_micros: number; call_fee_micros: number; direct_micros: number };
  cache: { read_tokens: number; write_tokens: number; ttl_applied: string };
}
interface ErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string;
}
type Outcome =
  | { status: 200; headers: Headers; completion: OpenAI.ChatCompletion; svc: Svc }
  | { status: number; headers: Headers; error: ErrorBody };

type Body = OpenAI.ChatCompletionCreateParamsNonStreaming & { svc?: { fallback?: 'same_vendor' | 'cross_vendor' | 'none' } };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BYOK: an organization’s own vendor key', () => {
  const state = fleetState();
  let organizationId: string;
  let client: OpenAI;
  const ownKey = `sk-e2e-${randomBytes(8).toString('hex')}-Q7zx`;

  /** The SDK's answer or its APIError, as status, headers and body. */
  async function call(body: Body): Promise<Outcome> {
    try {
      const { data, response } = await client.chat.completions.create(body).withResponse();
      return { status: 200, headers: response.headers, completion: data, svc: (data as unknown as { svc: Svc }).svc };
    } catch (error) {
      if (error instanceof APIError && error.status !== undefined && error.headers) return { status: error.status, headers: error.headers, error: error.error as ErrorBody };
      throw error;
    }
  }

  /** Calls until the answer has `status` (an admin change reaching every edge), then returns it. */
  async function callUntil(status: number, body: Body): Promise<Outcome> {
    const deadline = Date.now() + PROPAGATION_MS;
    for (;;) {
      const outcome = await call(body);
      if (outcome.status === status || Date.now() > deadline) return outcome;
      await sleep(100);
    }
  }

  const named = (content: string): Body => ({ model: MODEL, max_tokens: 20, messages: [{ role: 'user', content: `${content} ${randomBytes(6).toString('hex')}` }] });

  beforeAll(() => {
    if (!state.env.BYOK_ENCRYPTION_KEY) throw new Error('the e2e fleet has no BYOK_ENCRYPTION_KEY (test-e2e/support/global-setup.ts)');
    // A paid organization at zero that stops at zero: zero balance means 402, not the Free plan.
    const org = admin<{ organization_id: string }>('org', 'create', '--name', `e2e-byok-${Date.now()}-${randomBytes(3).toString('hex')}`, '--plan', 'paid', '--credit', '0', '--stop-at-zero');
    organizationId = org.organization_id;
    const key = admin<{ key: string }>('key', 'create', '--org', organizationId);
    client = new OpenAI({ baseURL: state.baseUrl, apiKey: key.key, maxRetries: 0 });
  });

  it('without an own key, the zero-credit organization is refused 402 on the named model', async () => {
    const outcome = await call(named('hello'));
    expect(outcome.status).toBe(402);
    expect('error' in outcome && outcome.error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error' });
    expect(outcome.headers.get('x-svc-balance-micros')).toBe('0');
  });

  it('byok set stores the key and shows only its last four characters', () => {
    const set = admin<Record<string, string>>('byok', 'set', '--org', organizationId, '--vendor', VENDOR, '--key', ownKey);
    expect(set).toEqual({ organization_id: organizationId, vendor: VENDOR, hint: 'Q7zx', updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const listed = admin<Array<Record<string, string>>>('byok', 'list', '--org', organizationId);
    expect(listed).toEqual([{ vendor: VENDOR, hint: 'Q7zx', updated_at: set.updated_at }]);
    expect(JSON.stringify(listed)).not.toContain(ownKey.slice(0, -4));
  });

  it('a named model of that vendor is served on the own key at zero credit: byok true, nothing billed, direct price filled', async () => {
    const outcome = await callUntil(200, named('Say hello'));
    if (!('svc' in outcome)) throw new Error(`expected 200, got ${outcome.status} ${JSON.stringify(outcome.error)}`);
    expect(outcome.headers.get('x-svc-byok')).toBe('true');
    const { svc, completion } = outcome;
    expect(svc).toMatchObject({ byok: true, vendor: VENDOR, model_served: MODEL, attempts: 1 });
    expect(svc.cache).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
    expect(svc.cost_micros).toBe(0);
    expect(svc.cost.vendor_micros).toBe(0);
    expect(svc.cost.service_fee_micros).toBe(0);
    expect(svc.cost.call_fee_micros).toBe(0);
    // direct_micros is still the provider's list price of the call.
    const usage = completion.usage!;
    const listPrice = listPriceMicros(catalog.chatModel(MODEL)!.pricing, { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, cachedTokens: 0, cacheWriteTokens: 0 });
    expect(listPrice).toBeGreaterThan(0);
    expect(svc.cost.direct_micros).toBe(listPrice);
  });

  it('auto from the same zero-credit organization is refused 402: auto always needs credit', async () => {
    const outcome = await call({ model: 'auto', max_tokens: 20, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(outcome.status).toBe(402);
    expect('error' in outcome && outcome.error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error' });
    expect(outcome.headers.get('x-svc-balance-micros')).toBe('0');
  });

  it('a rejected own key fails 400 byok_key_invalid with no fallback, even under cross_vendor', async () => {
    expect(admin<Record<string, string>>('byok', 'set', '--org', organizationId, '--vendor', VENDOR, '--key', BAD_KEY).hint).toBe('-key');
    const body: Body = { ...named('Say hello'), svc: { fallback: 'cross_vendor' } };
    const outcome = await callUntil(400, body);
    if (!('error' in outcome)) throw new Error(`expected 400, got ${outcome.status} from ${outcome.svc.vendor} (a fallback answered)`);
    expect(outcome.status).toBe(400);
    expect(outcome.error).toEqual({ message: expect.any(String), type: 'invalid_request_error', param: null, code: 'byok_key_invalid' });
    // The own key never appears in the answer.
    expect(outcome.error.message).not.toContain(BAD_KEY);

    // Not a passing fault: the next call fails the same way.
    const again = await call(body);
    expect(again.status).toBe(400);
    expect('error' in again && again.error.code).toBe('byok_key_invalid');
  });

  it('byok remove: the named model needs credit again', async () => {
    expect(admin('byok', 'remove', '--org', organizationId, '--vendor', VENDOR)).toEqual({ organization_id: organizationId, vendor: VENDOR, removed: true });
    expect(admin<unknown[]>('byok', 'list', '--org', organizationId)).toEqual([]);
    const outcome = await callUntil(402, named('hello'));
    expect(outcome.status).toBe(402);
    expect('error' in outcome && outcome.error.code).toBe('insufficient_credits');
  });
});
