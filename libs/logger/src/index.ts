import winston from 'winston';
import { trace, context } from '@opentelemetry/api';

/** Field names whose values never reach a log line (keys, secrets, prompts). */
const REDACTED_FIELDS = new Set([
  'authorization', 'x-api-key', 'api_key', 'apikey', 'apiKey', 'key', 'secret', 'password', 'token',
  'vendor_key', 'vendorKey', 'messages', 'prompt', 'prompts', 'content', 'input', 'instructions', 'body',
]);
const KEY_PATTERN = /svc_live_[A-Za-z0-9]{43}/g;
const BEARER_PATTERN = /Bearer\s+[A-Za-z0-9._\-]+/gi;

function scrubString(value: string): string {
  return value.replace(KEY_PATTERN, 'svc_live_[redacted]').replace(BEARER_PATTERN, 'Bearer [redacted]');
}

/** Returns a copy of `value` with secret-bearing fields replaced by "[redacted]". */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[deep]';
  if (typeof value === 'string') return scrubString(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value instanceof Error) {
    return { name: value.name, message: scrubString(value.message), code: (value as { code?: unknown }).code, stack: value.stack ? scrubString(value.stack) : undefined };
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      out[field] = REDACTED_FIELDS.has(field) || REDACTED_FIELDS.has(field.toLowerCase()) ? '[redacted]' : redact(inner, depth + 1);
    }
    return out;
  }
  return value;
}

const SYMBOLS = [Symbol.for('level'), Symbol.for('message'), Symbol.for('splat')];

const redactFormat = winston.format((info) => {
  const cleaned = redact({ ...info }) as Record<string | symbol, unknown>;
  for (const symbol of SYMBOLS) cleaned[symbol] = (info as Record<symbol, unknown>)[symbol];
  return cleaned as winston.Logform.TransformableInfo;
});

/** Adds trace_id/span_id of the active span so logs join their trace. */
const traceFormat = winston.format((info) => {
  const span = trace.getSpan(context.active());
  if (span) {
    const spanContext = span.spanContext();
    if (spanContext.traceId && spanContext.traceId !== '00000000000000000000000000000000') {
      info.trace_id = spanContext.traceId;
      info.span_id = spanContext.spanId;
    }
  }
  return info;
});

export type Logger = winston.Logger;

export interface LoggerOptions {
  service: string;
  version?: string;
  level?: string;
  /** Defaults to stdout; tests pass their own transport. */
  transports?: winston.transport[];
  silent?: boolean;
}

/** The service's root logger: JSON lines with service.name, service.version, trace ids; secrets redacted. */
export function createLogger(options: LoggerOptions): Logger {
  return winston.createLogger({
    level: options.level ?? 'info',
    silent: options.silent ?? false,
    defaultMeta: { 'service.name': options.service, 'service.version': options.version ?? '0.1.0' },
    format: winston.format.combine(winston.format.timestamp(), traceFormat(), redactFormat(), winston.format.json()),
    transports: options.transports ?? [new winston.transports.Console()],
  });
}

export { winston };

export { throttledWarning, type WarnLogger } from './throttled';
