// `npm test`: the same set-up as `npm start` (for the isolated test environments), then every
// unit, integration and end-to-end test. Prints `tests: N passed, N failed`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup, root, envFor } from './setup.mjs';

/** End-to-end files that mostly wait (vendor batches, the pool, background turns): they run beside the others. */
const WAITING = [
  'test-e2e/batches/batches.e2e.test.ts',
  'test-e2e/responses/background-pool.e2e.test.ts',
  'test-e2e/responses/background.e2e.test.ts',
  'test-e2e/chaos/background.e2e.test.ts',
  'test-e2e/chaos/batch-kill.e2e.test.ts',
  'test-e2e/billing/plans.e2e.test.ts',
];

/** One jest process over `args`, its JSON report at `report`; resolves with its exit status. */
function jest(args, report, env = {}) {
  rmSync(report, { force: true });
  const argv = [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--json', `--outputFile=${report}`, ...args];
  if (process.env.CI) argv.push('--ci');
  // The report is written when the run ends; a handle a test left open must not hold CI open
  // (find it with `npx jest --detectOpenHandles <path>`).
  argv.push('--forceExit');
  const child = spawn(process.execPath, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

/** Passed and failed tests of one report (a missing or unreadable report is a failure). */
function counts(report) {
  try {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    return { passed: summary.numPassedTests, failed: summary.numFailedTests + summary.numRuntimeErrorTestSuites };
  } catch {
    return { passed: 0, failed: 1 };
  }
}

async function main() {
  const extra = process.argv.slice(2);
  await setup({ environmentsToPrepare: extra.length === 0 ? ['test', 'e2e', 'e2eSide'] : ['test', 'e2e'] });
  const reportDir = join(root, '.svc', 'reports');
  mkdirSync(reportDir, { recursive: true });
  // A whole run is two jest processes at once, each end-to-end process with a fleet of its own
  // (its own vhost and key prefix; see test-e2e/support/global-setup.ts): most end-to-end time is
  // spent waiting on a fleet, so the other process uses the second core. One runs the end-to-end
  // files one at a time — the chaos files that stop, cut and time the services among them — the
  // other the unit and integration tests, then the end-to-end files that mostly wait on batches
  // and background work (WAITING). With arguments (a subset): one process.
  const waiting = WAITING.map((path) => path.replace(/[.]/g, '[.]')).join('|');
  const runs =
    extra.length === 0
      ? [
          [['--selectProjects', 'e2e', '--testPathIgnorePatterns', waiting, '/node_modules/'], 'e2e.json'],
          [['--selectProjects', 'unit', 'integration', 'e2e', '--testPathPatterns', `/(libs|services|scripts|k8s)/|${waiting}`], 'jest.json', { E2E_DATABASE_URL: envFor('e2eSide').DATABASE_URL }],
        ]
      : [[extra, 'jest.json']];
  const statuses = await Promise.all(runs.map(([args, name, env]) => jest(args, join(reportDir, name), env)));
  let passed = 0;
  let failed = 0;
  for (const [, name] of runs) {
    const result = counts(join(reportDir, name));
    passed += result.passed;
    failed += result.failed;
  }
  process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
  process.exit(statuses.every((status) => status === 0) && failed === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`svc test: ${error.message}\n`);
  process.stdout.write('\ntests: 0 passed, 1 failed\n');
  process.exit(1);
});
