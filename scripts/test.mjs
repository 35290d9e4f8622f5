// `npm test`: the same set-up as `npm start` (for the isolated test environments), then every
// unit, integration and end-to-end test. Prints `tests: N passed, N failed`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup, root } from './setup.mjs';

/** One jest process over `args`, its JSON report at `report`; resolves with its exit status. */
function jest(args, report) {
  rmSync(report, { force: true });
  const argv = [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--json', `--outputFile=${report}`, ...args];
  if (process.env.CI) argv.push('--ci');
  // The report is written when the run ends; a handle a test left open must not hold CI open
  // (find it with `npx jest --detectOpenHandles <path>`).
  argv.push('--forceExit');
  const child = spawn(process.execPath, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
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
  await setup({ environmentsToPrepare: ['test', 'e2e'] });
  const reportDir = join(root, '.svc', 'reports');
  mkdirSync(reportDir, { recursive: true });
  const extra = process.argv.slice(2);
  // A whole run is two jest processes at once: the end-to-end tests (one fleet, one file at a
  // time: some stop and kill its services) beside the unit and integration tests, which touch no
  // fleet (their own database, vhost and key prefix). Most end-to-end time is spent waiting on the
  // fleet, so the other process uses the second core. With arguments (a subset): one process.
  const runs = extra.length === 0 ? [[['--selectProjects', 'e2e'], 'e2e.json'], [['--selectProjects', 'unit', 'integration'], 'jest.json']] : [[extra, 'jest.json']];
  const statuses = await Promise.all(runs.map(([args, name]) => jest(args, join(reportDir, name))));
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
