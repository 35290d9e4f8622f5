import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { measureRoute } from './metrics';

describe('measureRoute', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('labels an auto route with its line and trigger, a named one with line named', async () => {
    await measureRoute(async () => ({ routing: { line: 'balanced', trigger: 'no_prior_decision' } }));
    await measureRoute(async () => ({ routing: { line: '', trigger: 'explicit' } }));
    expect(await memory.sum('svc.router.routes', { line: 'balanced', trigger: 'no_prior_decision', outcome: 'ok' })).toBe(1);
    expect(await memory.sum('svc.router.routes', { line: 'named', trigger: 'explicit', outcome: 'ok' })).toBe(1);
    expect(await memory.histogram('svc.router.route.duration_ms', { line: 'named', trigger: 'explicit' })).toMatchObject({ count: 1 });
  });

  it('counts a refused route as an error and rethrows it', async () => {
    const failure = new Error('model not found');
    await expect(measureRoute(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(await memory.sum('svc.router.routes', { outcome: 'error', line: 'none', trigger: 'none' })).toBe(1);
  });
});
