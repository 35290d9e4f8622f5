import { metrics, type Attributes } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';

class MemoryReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface MemoryHistogram {
  count: number;
  sum: number;
  boundaries: number[];
  counts: number[];
}

export interface MemoryPoint {
  attributes: Attributes;
  value: number | MemoryHistogram;
}

export interface InMemoryMetrics {
  /** Every data point of the metric named `name` (empty when it recorded nothing). */
  points(name: string): Promise<MemoryPoint[]>;
  /** Sum of a counter's (or gauge's) points whose attributes include `attributes`. */
  sum(name: string, attributes?: Attributes): Promise<number>;
  /** The histogram point whose attributes include `attributes`, if any. */
  histogram(name: string, attributes?: Attributes): Promise<MemoryHistogram | undefined>;
  /** Unregisters the provider (the global one is no-op again). */
  stop(): Promise<void>;
}

const includes = (attributes: Attributes, wanted: Attributes) => Object.entries(wanted).every(([name, value]) => attributes[name] === value);

function toPoints(metric: MetricData): MemoryPoint[] {
  if (metric.dataPointType === DataPointType.HISTOGRAM) {
    return metric.dataPoints.map((point) => ({
      attributes: point.attributes,
      value: { count: point.value.count, sum: point.value.sum ?? 0, boundaries: point.value.buckets.boundaries, counts: point.value.buckets.counts },
    }));
  }
  if (metric.dataPointType === DataPointType.SUM || metric.dataPointType === DataPointType.GAUGE) {
    return metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }));
  }
  return [];
}

/**
 * Registers a global meter provider that keeps everything in memory, for tests of code that
 * records through svcMetrics(); each read collects what was recorded so far (cumulative).
 */
export function inMemoryMetrics(): InMemoryMetrics {
  const reader = new MemoryReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.disable();
  metrics.setGlobalMeterProvider(provider);
  const points = async (name: string): Promise<MemoryPoint[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.filter((metric) => metric.descriptor.name === name).flatMap(toPoints));
  };
  return {
    points,
    async sum(name, attributes = {}) {
      let total = 0;
      for (const point of await points(name)) if (typeof point.value === 'number' && includes(point.attributes, attributes)) total += point.value;
      return total;
    },
    async histogram(name, attributes = {}) {
      const point = (await points(name)).find((candidate) => typeof candidate.value !== 'number' && includes(candidate.attributes, attributes));
      return point?.value as MemoryHistogram | undefined;
    },
    async stop() {
      metrics.disable();
      await provider.shutdown();
    },
  };
}
