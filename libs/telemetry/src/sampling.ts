import { SamplingDecision, SpanStatusCode, TraceFlags, trace, type Attributes, type Context, type Link, type SpanContext, type SpanKind } from '@opentelemetry/api';
import type { Context as OtelContext } from '@opentelemetry/api';
import type { ReadableSpan, Sampler, SamplingResult, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Traces sampled by ratio, errors always kept.
 *
 * A head sampler decides at a trace's first span whether it is exported; a trace that ends in an
 * error is the one on-call wants, and it cannot be known at the start. So:
 * - `RatioKeepingErrorsSampler`: a root span is sampled (exported whole) for a share `ratio` of
 *   trace ids, the same decision in every service for one trace (the trace id is the coin); every
 *   other span is still recorded, unsampled, so its status is known when it ends. A child follows
 *   its parent's sampled flag, local or remote.
 * - `KeepErrorsProcessor`: in front of the exporting processor; passes sampled spans on, and an
 *   unsampled span only when it ended with status ERROR (shown to the exporter as sampled). An
 *   error's trace thus holds its error spans at least (in every service where one failed), with
 *   their attributes, events and trace id, which is also in the error's log line.
 *
 * At ratio 1 every trace is exported, as without this; lower ratios cut the export work (the
 * serialization and the OTLP requests), not the recording.
 */
export class RatioKeepingErrorsSampler implements Sampler {
  private readonly bound: number;

  constructor(private readonly ratio: number) {
    const clamped = Math.min(1, Math.max(0, Number.isFinite(ratio) ? ratio : 1));
    this.ratio = clamped;
    this.bound = Math.floor(clamped * 0x100000000);
  }

  shouldSample(context: Context, traceId: string, _name: string, _kind: SpanKind, _attributes: Attributes, _links: Link[]): SamplingResult {
    const parent = trace.getSpanContext(context as OtelContext);
    if (parent && parent.traceId === traceId) {
      return { decision: parent.traceFlags & TraceFlags.SAMPLED ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.RECORD };
    }
    return { decision: this.sampled(traceId) ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.RECORD };
  }

  /** The trace id's last 8 hex digits as the coin: the same answer in every service. */
  sampled(traceId: string): boolean {
    if (this.ratio >= 1) return true;
    if (this.ratio <= 0) return false;
    const coin = parseInt(traceId.slice(-8), 16);
    return Number.isFinite(coin) && coin < this.bound;
  }

  toString(): string {
    return `RatioKeepingErrorsSampler{${this.ratio}}`;
  }
}

export class KeepErrorsProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    if (span.spanContext().traceFlags & TraceFlags.SAMPLED) this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const context = span.spanContext();
    if (context.traceFlags & TraceFlags.SAMPLED) {
      this.inner.onEnd(span);
      return;
    }
    if (span.status.code !== SpanStatusCode.ERROR) return;
    const sampledContext: SpanContext = { ...context, traceFlags: context.traceFlags | TraceFlags.SAMPLED };
    // The same span, shown as sampled: the exporting processor drops unsampled spans.
    this.inner.onEnd(Object.create(span, { spanContext: { value: () => sampledContext } }) as ReadableSpan);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}
