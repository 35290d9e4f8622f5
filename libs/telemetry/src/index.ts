import { NodeSDK } from '@opentelemetry/sdk-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { context } from '@opentelemetry/api';
import { KeepErrorsProcessor, RatioKeepingErrorsSampler } from './sampling';
import { parseConfig, z, env } from '@svc/config';

export const telemetrySchema = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SDK_DISABLED: env.bool(false),
  /** Prometheus endpoint (/metrics) on this port; 0 turns it off. */
  METRICS_PORT: env.port(9464),
  METRICS_HOST: env.string('0.0.0.0'),
  /**
   * Share of traces exported whole, 0 to 1 (the trace id decides, the same in every service); a
   * span that ends with an error is exported whatever the share (sampling.ts).
   */
  TRACE_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
});

export interface TelemetryOptions {
  service: string;
  version?: string;
  env?: NodeJS.ProcessEnv;
}

let sdk: NodeSDK | undefined;

/**
 * Starts OpenTelemetry before anything else is loaded (each service's src/instrumentation.ts).
 * Traces go to OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set; metrics are served to
 * Prometheus on METRICS_PORT. Prompts and keys are never span attributes (see docs/ops).
 */
export function startTelemetry(options: TelemetryOptions): NodeSDK | undefined {
  if (sdk) return sdk;
  const config = parseConfig(`${options.service} telemetry`, telemetrySchema, options.env ?? process.env);
  if (config.OTEL_SDK_DISABLED) return undefined;
  // A tracer provider is always registered (trace ids in logs, context across processes);
  // spans leave the process only when an OTLP endpoint is configured.
  const spanProcessors: SpanProcessor[] = [new NoopSpanProcessor()];
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const base = config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '');
    spanProcessors[0] = new KeepErrorsProcessor(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces` }), { scheduledDelayMillis: 500 }));
  }
  // Explicit empty lists: left unset, the SDK would add default OTLP metric and log exporters.
  const metricReaders = config.METRICS_PORT > 0 ? [new PrometheusExporter({ port: config.METRICS_PORT, host: config.METRICS_HOST })] : [];
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.service, [ATTR_SERVICE_VERSION]: options.version ?? '0.1.0' }),
    sampler: new RatioKeepingErrorsSampler(config.TRACE_SAMPLE_RATIO),
    spanProcessors,
    metricReaders,
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => request.url === '/healthz' || request.url === '/readyz' || request.url === '/metrics' }),
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      new UndiciInstrumentation(),
      new IORedisInstrumentation(),
      new AmqplibInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}

/**
 * Names the HTTP server span of the request in progress after its route ("POST /v1/chat/completions",
 * attribute http.route), as the Express instrumentation would. That instrumentation is not loaded:
 * it wraps every middleware and opened a span for each (seven per chat call on the edge) for no
 * information a trace reader uses; the edge calls this once, when Express matches the route.
 */
export function setHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}

/** Flushes spans and stops exporters; called at the end of a graceful shutdown. */
export async function stopTelemetry(): Promise<void> {
  const current = sdk;
  sdk = undefined;
  if (current) await current.shutdown().catch(() => undefined);
}

export { metrics, trace, context, propagation, SpanStatusCode } from '@opentelemetry/api';
export * from './metrics';
export { KeepErrorsProcessor, RatioKeepingErrorsSampler } from './sampling';
export { inMemoryMetrics, type InMemoryMetrics, type MemoryHistogram, type MemoryPoint } from './metrics-memory';
