import { elapsedMs, svcMetrics, type RouteAttributes } from '@svc/telemetry';

/**
 * Runs one Route RPC and records it (svc.router.routes and its duration): line is the auto
 * line or 'named', trigger the session trigger (named models: 'explicit'). A refused route
 * (unknown model, no access) is counted with outcome 'error' and line and trigger 'none'.
 */
export async function measureRoute<T extends { routing?: { line?: string | null; trigger?: string | null } | null }>(work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  let attributes: RouteAttributes = { line: 'none', trigger: 'none', outcome: 'error' };
  try {
    const result = await work();
    attributes = { line: result.routing?.line || 'named', trigger: result.routing?.trigger || 'none', outcome: 'ok' };
    return result;
  } finally {
    const instruments = svcMetrics();
    instruments.routes.add(1, attributes);
    instruments.routeDuration.record(elapsedMs(startedAt), attributes);
  }
}
