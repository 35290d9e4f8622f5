import { VendorError } from '@svc/vendors';
import { elapsedMs, svcMetrics, type VendorOutcome } from '@svc/telemetry';

/** ok without an error; aborted when the client left; otherwise the vendor error's class. */
export function vendorOutcome(error?: unknown): VendorOutcome {
  if (error === undefined) return 'ok';
  if (error instanceof VendorError) {
    if (error.kind === 'aborted') return 'aborted';
    return error.retryable ? 'retryable' : 'fatal';
  }
  return 'fatal';
}

/**
 * Runs one vendor attempt and records it (svc.vendor.attempts by outcome, and its duration).
 * The error, if any, is rethrown unchanged.
 */
/** One finished vendor attempt, as an observer sees it (the status document's measurements). */
export interface AttemptObservation {
  vendor: string;
  model: string;
  outcome: VendorOutcome;
  durationMs: number;
}

export type AttemptObserver = (observation: AttemptObservation) => void;

export async function measureAttempt<T>(model: { vendor: string; id: string }, work: () => Promise<T>, observe?: AttemptObserver): Promise<T> {
  const startedAt = performance.now();
  let failure: unknown;
  try {
    return await work();
  } catch (error) {
    failure = error ?? new Error('attempt failed');
    throw error;
  } finally {
    const instruments = svcMetrics();
    const outcome = vendorOutcome(failure);
    const durationMs = elapsedMs(startedAt);
    instruments.vendorAttempts.add(1, { vendor: model.vendor, model: model.id, outcome });
    instruments.vendorDuration.record(durationMs, { vendor: model.vendor, model: model.id });
    observe?.({ vendor: model.vendor, model: model.id, outcome, durationMs });
  }
}

/** A call served by another candidate than the first one tried. */
export function recordFallback(fromModel: string, toModel: string): void {
  if (fromModel && fromModel !== toModel) svcMetrics().fallbacks.add(1, { from_model: fromModel, to_model: toModel });
}

/** A flex attempt refused for capacity, retried at standard on the same model. */
export function recordCapacityFallback(model: { vendor: string; id: string }): void {
  svcMetrics().capacityFallbacks.add(1, { vendor: model.vendor, model: model.id });
}
