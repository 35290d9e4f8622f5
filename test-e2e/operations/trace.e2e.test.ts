import { createServer, type Server } from 'node:http';
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFleet, type Fleet } from '../../libs/fleet/src';
import { adminWithEnv, fleetState, ROOT } from '../support/fleet-state';

/**
 * One trace per request across the fleet, on real processes: a fleet of this test's own exports
 * spans over OTLP/HTTP (JSON) to a receiver inside the test. A chat call must yield one trace id
 * on the edge, the router, billing (the Admit RPC and the usage.settle consumer with its ledger
 * write) and the vendor simulator; the edge's log line for the call carries the same trace id;
 * no span carries the prompt or the API key.
 */
jest.setTimeout(180_000);

/** OTLP span kinds and status codes as they appear in the JSON encoding. */
const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;
const STATUS_ERROR = 2;

interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  status: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number; status?: { code?: number }; attributes?: OtlpKeyValue[] }>;
    }>;
  }>;
}

function valueOf(value: OtlpValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return value.bytesValue;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

/** Ids are hex in the JSON encoding; base64 (the protobuf JSON mapping) is accepted too. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

/** A minimal OTLP/HTTP trace receiver: POST /v1/traces with a JSON body. */
class Receiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every export body as received, to search for values that must never be exported. */
  readonly bodies: string[] = [];
  readonly refused: string[] = [];
  private server: Server | undefined;

  async start(): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !(req.headers['content-type'] ?? '').includes('json')) {
          this.refused.push(`${req.method} ${req.url} ${req.headers['content-type'] ?? ''}`);
          res.writeHead(415).end();
          return;
        }
        const raw = Buffer.concat(chunks);
        const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        this.bodies.push(text);
        this.collect(JSON.parse(text) as OtlpRequest);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  private collect(request: OtlpRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            scope: scopeSpans.scope?.name ?? '',
            traceId: hexId(span.traceId),
            spanId: hexId(span.spanId),
            parentSpanId: hexId(span.parentSpanId),
            name: span.name,
            kind: span.kind ?? 0,
            status: span.status?.code ?? 0,
            attributes: attributesOf(span.attributes),
          });
        }
      }
    }
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function isPostgres(span: ReceivedSpan): boolean {
  return span.service === 'billing' && (span.attributes['db.system'] === 'postgresql' || span.attributes['db.system.name'] === 'postgresql');
}

/** The span's ancestors within its trace, nearest first. */
function ancestors(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.map((item) => [item.spanId, item]));
  const out: ReceivedSpan[] = [];
  let parent = byId.get(span.parentSpanId);
  while (parent && out.length < 64) {
    out.push(parent);
    parent = byId.get(parent.parentSpanId);
  }
  return out;
}

/** Everything ever exported (span names, attributes, resources) is free of these texts. */
function expectNotExported(receiver: Receiver, texts: string[]): void {
  expect(receiver.bodies.length).toBeGreaterThan(0);
  for (const body of receiver.bodies) for (const text of texts) expect(body.includes(text) ? text : '').toBe('');
}

async function eventually<T>(probe: () => T | undefined | false, what: () => string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** RabbitMQ vhosts are managed with rabbitmqctl, as in scripts/setup.mjs. */
function rabbitmqctl(...args: string[]): void {
  execFileSync('rabbitmqctl', args, { stdio: 'ignore' });
}

/**
 * A fleet of the test's own exporting to `receiver` (its own vhost and Redis prefix: on the shared
 * e2e vhost another fleet's billing, exporting nowhere, could take its usage.settle messages), an
 * organization and a key; started in beforeAll, stopped in afterAll.
 */
function traceFleet(receiver: Receiver, extraEnv: Record<string, string> = {}) {
  const run = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const vhost = `svc_e2e_trace_${run.replace(/-/g, '_')}`;
  const state = { logDir: join(ROOT, '.svc', 'logs', `e2e-trace-${run}`), fleet: undefined as Fleet | undefined, apiKey: '', organizationId: '', keyId: '' };
  let vhostCreated = false;

  beforeAll(async () => {
    const port = await receiver.start();
    rabbitmqctl('add_vhost', vhost);
    vhostCreated = true;
    rabbitmqctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
    const shared = fleetState().env;
    const amqpUrl = new URL(shared.AMQP_URL);
    amqpUrl.pathname = `/${vhost}`;
    const env = {
      ...shared,
      AMQP_URL: amqpUrl.toString(),
      REDIS_KEY_PREFIX: `svce2e:trace:${run}:`,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      HEALTH_FAILURE_THRESHOLD: '1000000',
      IP_RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    };
    state.fleet = await startFleet({ root: ROOT, env, logDir: state.logDir, restart: false });
    const org = adminWithEnv<{ organization_id: string }>(env, 'org', 'create', '--name', `e2e-trace-${run}`, '--plan', 'paid', '--credit', '10000000');
    const key = adminWithEnv<{ key: string; key_id: string }>(env, 'key', 'create', '--org', org.organization_id);
    state.organizationId = org.organization_id;
    state.apiKey = key.key;
    state.keyId = key.key_id;
  }, 180_000);

  afterAll(async () => {
    await state.fleet?.stop();
    await receiver.stop();
    if (vhostCreated) rabbitmqctl('delete_vhost', vhost);
  }, 90_000);

  const chat = async (payload: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${state.fleet!.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ max_tokens: 20, ...payload }),
    });
    return { status: response.status, requestId: response.headers.get('x-request-id') ?? '', body: (await response.json()) as Record<string, any> };
  };
  return { state, chat };
}

describe('one trace per request across the fleet (OTLP/HTTP to a receiver in the test)', () => {
  const receiver = new Receiver();
  const { state, chat } = traceFleet(receiver);

  /** The trace of one call: the edge span that carries its request id names it. */
  const traceOf = (requestId: string) =>
    eventually(
      () => receiver.spans.find((span) => span.service === 'edge' && span.attributes['svc.request_id'] === requestId)?.traceId,
      () => `an edge span with svc.request_id ${requestId} (${receiver.spans.length} spans so far${receiver.refused.length ? `; refused: ${receiver.refused.join(', ')}` : ''})`,
    );

  it('a chat call with a fallback is one trace across edge, billing (Admit and usage.settle) and vendor-sim', async () => {
    const prompt = `trace-probe-${randomUUID()}: name three primary colours`;
    // The first candidate fails at the simulator, the second answers: two vendor attempts, and the
    // edge logs the failed one (a log line of this request).
    const result = await chat(
      { model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: prompt }] },
      { 'x-sim-fault': 'status:500', 'x-sim-fault-model': 'orion-mini-5', 'x-svc-fallback': 'same_vendor' },
    );
    expect(result.status).toBe(200);
    expect(result.body.svc.attempts).toBe(2);
    const traceId = await traceOf(result.requestId);

    // Wait until every expected span of the trace is in, then look at them.
    const missing = (found: ReceivedSpan[]): string[] => {
      const has = (what: string, test: (span: ReceivedSpan) => boolean) => (found.some(test) ? [] : [what]);
      return [
        ...has('edge server span', (span) => span.service === 'edge' && span.kind === KIND.SERVER),
        // A named model is routed inside the edge (libs/routing): no router span on this call.
        ...has('billing Admit server span', (span) => span.service === 'billing' && span.kind === KIND.SERVER && /Admit$/.test(span.name)),
        ...has('billing usage.settle consumer span', (span) => span.service === 'billing' && span.kind === KIND.CONSUMER && span.scope === '@svc/amqp'),
        ...has('billing Postgres span under the usage.settle consumer span', (span) => isPostgres(span) && ancestors(found, span).some((parent) => parent.scope === '@svc/amqp' && parent.kind === KIND.CONSUMER)),
        ...(found.filter((span) => span.service === 'edge' && span.name === 'vendor.attempt').length >= 2 ? [] : ['two vendor.attempt spans']),
        ...(found.filter((span) => span.service === 'vendor-sim' && span.kind === KIND.SERVER).length >= 2 ? [] : ['two vendor-sim server spans']),
      ];
    };
    const spans = await eventually(
      () => (missing(receiver.trace(traceId)).length === 0 ? receiver.trace(traceId) : undefined),
      () => `trace ${traceId} to be complete; missing ${missing(receiver.trace(traceId)).join(', ')}; have ${JSON.stringify(receiver.trace(traceId).map((span) => `${span.service}:${span.name}`))}`,
    );
    expect([...new Set(spans.map((span) => span.service))]).toEqual(expect.arrayContaining(['edge', 'billing', 'vendor-sim']));

    // The edge's server span is named after the matched route, and no span per Express middleware.
    const server = spans.find((span) => span.service === 'edge' && span.kind === KIND.SERVER)!;
    expect(server.name).toBe('POST /v1/chat/completions');
    expect(server.attributes['http.route']).toBe('/v1/chat/completions');
    expect(spans.filter((span) => span.service === 'edge' && /^(middleware|router|request handler)\b/.test(span.name))).toEqual([]);

    // Organization, key, request id and requested model on the edge's spans of the request.
    const edgeAttributes = Object.assign({}, ...spans.filter((span) => span.service === 'edge').map((span) => span.attributes)) as Record<string, unknown>;
    expect(edgeAttributes).toMatchObject({ 'svc.organization_id': state.organizationId, 'svc.key_id': state.keyId, 'svc.model_requested': 'vendor-1/orion-mini-5', 'svc.request_id': result.requestId });

    // One vendor.attempt span per attempt; the failed one says why and is an error.
    const attempts = spans.filter((span) => span.service === 'edge' && span.name === 'vendor.attempt').sort((a, b) => Number(a.attributes['svc.attempt']) - Number(b.attributes['svc.attempt']));
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.attributes).toMatchObject({ 'svc.vendor': 'vendor-1', 'svc.model': 'vendor-1/orion-mini-5', 'svc.attempt': 1, 'svc.error_kind': expect.any(String) });
    expect(attempts[0]!.status).toBe(STATUS_ERROR);
    expect(attempts[1]!.attributes).toMatchObject({ 'svc.vendor': 'vendor-1', 'svc.model': result.body.svc.model_served, 'svc.attempt': 2 });
    expect(attempts[1]!.attributes['svc.error_kind']).toBeUndefined();
    expect(attempts[1]!.status).not.toBe(STATUS_ERROR);

    // The simulator's HTTP server spans, each under one of the attempts.
    const simulated = spans.filter((span) => span.service === 'vendor-sim' && span.kind === KIND.SERVER);
    expect(simulated).toHaveLength(2);
    for (const span of simulated) expect(ancestors(spans, span).some((parent) => parent.name === 'vendor.attempt')).toBe(true);

    // The job: billing's usage.settle consumer span joins the trace, and the ledger write
    // (Postgres, through the pg instrumentation) nests under it.
    const consumer = spans.find((span) => span.service === 'billing' && span.kind === KIND.CONSUMER && span.scope === '@svc/amqp')!;
    expect(consumer.attributes).toMatchObject({ 'messaging.system': 'rabbitmq', 'messaging.destination.name': 'usage.settle' });
    expect(consumer.status).not.toBe(STATUS_ERROR);
    const writes = spans.filter((span) => isPostgres(span) && ancestors(spans, span).includes(consumer));
    expect(writes.length).toBeGreaterThan(0);

    // The edge's log line of this request (the failed attempt) carries the trace id.
    const logLine = await eventually(
      () => {
        const file = join(state.logDir, 'edge.log');
        if (!existsSync(file)) return undefined;
        return readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line) => {
            try {
              return [JSON.parse(line) as Record<string, unknown>];
            } catch {
              return [];
            }
          })
          .find((line) => line.message === 'vendor attempt failed' && line.trace_id === traceId);
      },
      () => `an edge log line 'vendor attempt failed' with trace_id ${traceId}`,
    );
    expect(logLine).toMatchObject({ 'service.name': 'edge', vendor: 'vendor-1', attempt: 1, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(spans.some((span) => span.spanId === logLine.span_id)).toBe(true);

    // Nothing exported carries the prompt or the key.
    expectNotExported(receiver, [prompt, 'name three primary colours', state.apiKey, state.apiKey.slice(-20)]);
    for (const span of receiver.spans) expect(JSON.stringify(span.attributes)).not.toMatch(/trace-probe-|svc_live_/);
  });

  it('an auto call is one trace through the router too, and records the requested model and the routing line', async () => {
    const prompt = 'Summarise in one line: the sky is blue because of Rayleigh scattering.';
    const result = await chat({ model: 'auto', messages: [{ role: 'user', content: prompt }] });
    expect(result.status).toBe(200);
    const traceId = await traceOf(result.requestId);
    const spans = await eventually(
      () => {
        const all = receiver.trace(traceId);
        const found = all.filter((span) => span.service === 'edge');
        const routed = all.some((span) => span.service === 'router' && span.kind === KIND.SERVER && /Route$/.test(span.name));
        return routed && found.some((span) => span.attributes['svc.model_requested'] === 'auto') && found.some((span) => span.name === 'vendor.attempt') ? found : undefined;
      },
      () => `edge spans and the router Route server span of the auto call's trace ${traceId}`,
    );
    const requested = spans.find((span) => span.attributes['svc.model_requested'] === 'auto')!;
    expect(requested.attributes['svc.line']).toBe(result.body.svc.routing.line);
    expect(typeof requested.attributes['svc.line']).toBe('string');
    expect((requested.attributes['svc.line'] as string).length).toBeGreaterThan(0);
    const attempt = spans.find((span) => span.name === 'vendor.attempt')!;
    expect(attempt.attributes).toMatchObject({ 'svc.vendor': result.body.svc.vendor, 'svc.model': result.body.svc.model_served, 'svc.attempt': 1 });
    expectNotExported(receiver, [prompt, 'Rayleigh scattering', state.apiKey]);
  });

  it('a refused call marks its request span with the error code and status ERROR', async () => {
    const result = await chat({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hello' }] }, { 'x-sim-fault': 'status:500', 'x-svc-fallback': 'none' });
    expect(result.status).toBe(502);
    expect(result.body.error.code).toBe('upstream_error');
    const traceId = await traceOf(result.requestId);
    const failed = await eventually(
      () => receiver.trace(traceId).find((span) => span.service === 'edge' && span.attributes['svc.error_code'] === 'upstream_error'),
      () => `an edge span with svc.error_code in trace ${traceId}`,
    );
    expect(failed.kind).toBe(KIND.SERVER);
    expect(failed.status).toBe(STATUS_ERROR);
    const attempt = await eventually(
      () => receiver.trace(traceId).find((span) => span.name === 'vendor.attempt'),
      () => `the vendor.attempt span of trace ${traceId}`,
    );
    expect(attempt).toMatchObject({ status: STATUS_ERROR, attributes: expect.objectContaining({ 'svc.attempt': 1, 'svc.error_kind': expect.any(String) }) });
  });
});

describe('traces sampled by ratio, errors always kept (TRACE_SAMPLE_RATIO 0)', () => {
  const receiver = new Receiver();
  const { chat } = traceFleet(receiver, { TRACE_SAMPLE_RATIO: '0' });

  it('an answered call exports nothing; a failed one exports its error spans, in one trace', async () => {
    const answered = await chat({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hello' }] });
    expect(answered.status).toBe(200);
    const failed = await chat({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hello' }] }, { 'x-sim-fault': 'status:500', 'x-svc-fallback': 'none' });
    expect(failed.status).toBe(502);
    const server = await eventually(
      () => receiver.spans.find((span) => span.service === 'edge' && span.attributes['svc.request_id'] === failed.requestId),
      () => `the failed call's edge span (${receiver.spans.length} spans so far)`,
    );
    expect(server).toMatchObject({ kind: KIND.SERVER, status: STATUS_ERROR, attributes: expect.objectContaining({ 'svc.error_code': 'upstream_error' }) });
    const attempt = await eventually(
      () => receiver.trace(server.traceId).find((span) => span.name === 'vendor.attempt'),
      () => `the failed vendor.attempt span in trace ${server.traceId}`,
    );
    expect(attempt.status).toBe(STATUS_ERROR);
    // Only error spans left the fleet: nothing of the answered call, no span that ended well.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.spans.filter((span) => span.attributes['svc.request_id'] === answered.requestId)).toEqual([]);
    expect(receiver.spans.filter((span) => span.status !== STATUS_ERROR)).toEqual([]);
  });
});
