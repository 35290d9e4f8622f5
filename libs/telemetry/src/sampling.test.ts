import { ROOT_CONTEXT, SamplingDecision, SpanKind, SpanStatusCode, TraceFlags, context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { KeepErrorsProcessor, RatioKeepingErrorsSampler } from './sampling';

const traceId = (tail: string) => `${'0'.repeat(24)}${tail}`;

describe('RatioKeepingErrorsSampler', () => {
  it('samples a root span by its trace id, the same answer every time, and records the rest', () => {
    const sampler = new RatioKeepingErrorsSampler(0.25);
    expect(sampler.shouldSample(ROOT_CONTEXT, traceId('00000001'), 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(sampler.shouldSample(ROOT_CONTEXT, traceId('3fffffff'), 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(sampler.shouldSample(ROOT_CONTEXT, traceId('40000000'), 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD);
    expect(sampler.shouldSample(ROOT_CONTEXT, traceId('ffffffff'), 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD);
  });

  it('keeps about the ratio over many trace ids', () => {
    const sampler = new RatioKeepingErrorsSampler(0.1);
    let kept = 0;
    for (let i = 0; i < 20_000; i += 1) if (sampler.sampled(traceId(((i * 2654435761) >>> 0).toString(16).padStart(8, '0')))) kept += 1;
    expect(kept / 20_000).toBeGreaterThan(0.09);
    expect(kept / 20_000).toBeLessThan(0.11);
  });

  it("follows the parent's sampled flag, remote or local", () => {
    const sampler = new RatioKeepingErrorsSampler(0);
    const id = traceId('00000001');
    const sampledParent = trace.setSpanContext(ROOT_CONTEXT, { traceId: id, spanId: '1'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const unsampledParent = trace.setSpanContext(ROOT_CONTEXT, { traceId: id, spanId: '1'.repeat(16), traceFlags: TraceFlags.NONE, isRemote: true });
    expect(sampler.shouldSample(sampledParent, id, 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(sampler.shouldSample(unsampledParent, id, 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD);
  });

  it('at ratio 1 every trace is sampled; a bad ratio counts as 1', () => {
    expect(new RatioKeepingErrorsSampler(1).sampled(traceId('ffffffff'))).toBe(true);
    expect(new RatioKeepingErrorsSampler(Number.NaN).sampled(traceId('ffffffff'))).toBe(true);
  });
});

describe('KeepErrorsProcessor', () => {
  it('exports sampled traces whole and, from unsampled ones, only the spans that ended in an error', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ sampler: new RatioKeepingErrorsSampler(0), spanProcessors: [new KeepErrorsProcessor(new SimpleSpanProcessor(exporter))] });
    const tracer = provider.getTracer('test');
    const root = tracer.startSpan('request');
    const ctx = trace.setSpan(context.active(), root);
    const ok = tracer.startSpan('redis', {}, ctx);
    ok.end();
    const failed = tracer.startSpan('vendor.attempt', { attributes: { 'svc.vendor': 'vendor-1' } }, ctx);
    failed.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream_timeout' });
    failed.end();
    root.end();
    const exported = exporter.getFinishedSpans();
    expect(exported.map((span) => span.name)).toEqual(['vendor.attempt']);
    expect(exported[0]!.spanContext().traceFlags & TraceFlags.SAMPLED).toBe(TraceFlags.SAMPLED);
    expect(exported[0]!.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(exported[0]!.attributes).toEqual({ 'svc.vendor': 'vendor-1' });
    expect(exported[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'upstream_timeout' });
    expect(exported[0]!.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });

  it('passes a sampled trace on unchanged', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ sampler: new RatioKeepingErrorsSampler(1), spanProcessors: [new KeepErrorsProcessor(new SimpleSpanProcessor(exporter))] });
    const tracer = provider.getTracer('test');
    const root = tracer.startSpan('request');
    tracer.startSpan('redis', {}, trace.setSpan(context.active(), root)).end();
    root.end();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['redis', 'request']);
  });
});
