import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChaosFleet, type ChaosFleet, type Organization } from './support/chaos-fleet';
import { mulberry32, nextCase, type FuzzCase, type Keys } from './support/fuzz-cases';
import { describeCase, runCase, type Verdict } from './support/fuzz-run';
import { report } from './support/reconcile';
import { call } from './support/traffic';

/**
 * Chaos 5: at least 10,000 hostile requests — malformed JSON, wrong types, huge and long values,
 * deep nesting, bad encodings, odd paths and methods, malformed HTTP over raw sockets, bad
 * credentials — from a seeded PRNG (CHAOS_FUZZ_SEED, default below; the report names it), with
 * 0 × 5xx and every refusal in the spec's envelope with an x-request-id. Bounded in time
 * (CHAOS_FUZZ_BUDGET_MS); the fleet must answer normally afterwards, with no process lost and no
 * key in any log.
 */
jest.setTimeout(240_000);

/** CPU seconds (user + system) each process has used so far (Linux /proc; empty elsewhere). */
function cpuSeconds(pids: Record<string, number | undefined>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out[name] = (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // not Linux, or gone
    }
  }
  return out;
}

const SEED = Number(process.env.CHAOS_FUZZ_SEED ?? 20_261_123);
const TARGET = Number(process.env.CHAOS_FUZZ_COUNT ?? 10_000);
const BUDGET_MS = Number(process.env.CHAOS_FUZZ_BUDGET_MS ?? 170_000);
const CONCURRENCY = 24;
// A hang is what this catches (a request never answered); how long answers take under load is the
// deadline scenario's subject. 30 s leaves room for a 2-core machine running other suites at once.
const TIMEOUT_MS = 30_000;

describe('chaos: fuzz', () => {
  let chaos: ChaosFleet;
  let organization: Organization;
  let keys: Keys;

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'fuzz' });
    organization = chaos.newOrganization();
    const embeddingsOnly = chaos.admin<{ key: string }>('key', 'create', '--org', organization.organizationId, '--scopes', 'embeddings', '--rpm', '1000000');
    const revoked = chaos.admin<{ key: string; key_id: string }>('key', 'create', '--org', organization.organizationId);
    chaos.admin('key', 'revoke', '--key', revoked.key_id);
    const broke = chaos.admin<{ organization_id: string }>('org', 'create', '--name', 'chaos-fuzz-broke', '--plan', 'paid', '--credit', '0', '--stop-at-zero');
    const brokeKey = chaos.admin<{ key: string }>('key', 'create', '--org', broke.organization_id, '--rpm', '1000000', '--tpm', '1000000000');
    keys = { valid: organization.apiKey, broke: brokeKey.key, embeddingsOnly: embeddingsOnly.key, revoked: revoked.key };
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  it(`${TARGET} hostile requests (seed ${SEED}): no 5xx, every refusal in the envelope with an x-request-id`, async () => {
    const rng = mulberry32(SEED);
    const origin = chaos.baseUrl.replace(/\/v1$/, '');
    const port = chaos.fleet.ports.edge;
    const pidsBefore = chaos.pids();
    const cpuBefore = cpuSeconds(pidsBefore);
    const ownCpuBefore = process.cpuUsage();
    const startedAt = Date.now();
    const verdicts: Array<Verdict & { index: number; fuzz: FuzzCase }> = [];
    let issued = 0;
    const worker = async () => {
      while (issued < TARGET && Date.now() - startedAt < BUDGET_MS) {
        const index = issued++;
        // Drawn in issue order: case i is the i-th draw for a seed, whatever the concurrency.
        const fuzz = nextCase(rng, keys);
        verdicts.push({ ...(await runCase(origin, port, fuzz, TIMEOUT_MS)), index, fuzz });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsedMs = Date.now() - startedAt;
    const cpuAfter = cpuSeconds(chaos.pids());
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const cpu = { ...Object.fromEntries(Object.keys(cpuAfter).map((name) => [name, Math.round(((cpuAfter[name] ?? 0) - (cpuBefore[name] ?? 0)) * 10) / 10])), test_process: Math.round((ownCpu.user + ownCpu.system) / 1e5) / 10 };

    // Afterwards the fleet answers normally, every process is the one it started with.
    const after = await call(chaos.baseUrl, organization.apiKey, { label: 'after', body: { model: 'vendor-1/orion-mini-5', max_tokens: 8, messages: [{ role: 'user', content: 'still there?' }] } });
    const pidsAfter = chaos.pids();
    const alive = chaos.fleet.instances.every((instance) => chaos.fleet.processOf(instance.name)?.exitCode === null);
    // No key in any log (the fuzz put keys in many odd places).
    const logs = readdirSync(chaos.logDir).map((file) => readFileSync(join(chaos.logDir, file), 'utf8'));
    const keyInLogs = logs.some((text) => Object.values(keys).some((key) => text.includes(key.slice(9))));
    const errorLines = logs.flatMap((text) => text.split('\n')).filter((line) => line.includes('"level":"error"'));

    const byCategory: Record<string, { requests: number; statuses: Record<string, number>; problems: number; mean_ms: number; max_ms: number }> = {};
    for (const verdict of verdicts) {
      const entry = (byCategory[verdict.category] ??= { requests: 0, statuses: {}, problems: 0, mean_ms: 0, max_ms: 0 });
      entry.mean_ms = Math.round((entry.mean_ms * entry.requests + verdict.ms) / (entry.requests + 1));
      entry.max_ms = Math.max(entry.max_ms, verdict.ms);
      entry.requests += 1;
      for (const status of verdict.statuses) entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
      if (verdict.problem) entry.problems += 1;
    }
    const statuses = verdicts.flatMap((verdict) => verdict.statuses);
    const fiveXX = statuses.filter((status) => status.startsWith('5')).length;
    const problems = verdicts.filter((verdict) => verdict.problem);
    const secrets = Object.values(keys);
    report('fuzz', {
      seed: SEED,
      requests: verdicts.length,
      elapsed_ms: elapsedMs,
      per_second: Math.round((verdicts.length / elapsedMs) * 1000),
      answers_5xx: fiveXX,
      refusals_4xx: statuses.filter((status) => status.startsWith('4')).length,
      accepted_2xx: statuses.filter((status) => status.startsWith('2')).length,
      problems: problems.length,
      by_category: byCategory,
      // One sample of each kind of problem (category, status or failure, first bytes of the request).
      problem_samples: [...new Map(problems.map((verdict) => [`${verdict.category} ${(verdict.problem ?? '').slice(0, 24)} ${describeCase(verdict.fuzz, secrets).slice(0, 30)}`, verdict])).values()].slice(0, 30).map((verdict) => ({ index: verdict.index, category: verdict.category, problem: verdict.problem, request: describeCase(verdict.fuzz, secrets) })),
      cpu_seconds: cpu,
      after_status: after.status,
      restarts: Object.keys(pidsBefore).filter((name) => pidsBefore[name] !== pidsAfter[name]),
      error_log_lines: errorLines.length,
      error_log_samples: errorLines.slice(0, 5).map((line) => line.slice(0, 400)),
      key_in_logs: keyInLogs,
    });

    expect(verdicts.length).toBeGreaterThanOrEqual(TARGET);
    expect(fiveXX).toBe(0);
    expect(problems.map((verdict) => `${verdict.index} ${verdict.category}: ${verdict.problem}`).slice(0, 20)).toEqual([]);
    expect({ after: after.answered, alive, restarts: Object.keys(pidsBefore).filter((name) => pidsBefore[name] !== pidsAfter[name]) }).toEqual({ after: true, alive: true, restarts: [] });
    expect(errorLines.slice(0, 5)).toEqual([]);
    expect(keyInLogs).toBe(false);
  });
});
