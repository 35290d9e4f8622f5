// `npm test`: the same set-up as `npm start` (for the isolated test environments), then every
// unit, integration and end-to-end test in one jest run. Prints `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup, root } from './setup.mjs';

async function main() {
  await setup({ environmentsToPrepare: ['test', 'e2e'] });
  const reportDir = join(root, '.svc', 'reports');
  mkdirSync(reportDir, { recursive: true });
  const report = join(reportDir, 'jest.json');
  rmSync(report, { force: true });
  const args = [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--json', `--outputFile=${report}`, ...process.argv.slice(2)];
  if (process.env.CI) args.push('--ci');
  // The report is written when the run ends; a handle a test left open must not hold CI open
  // (find it with `npx jest --detectOpenHandles <path>`).
  args.push('--forceExit');
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
  let passed = 0;
  let failed = 0;
  try {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    passed = summary.numPassedTests;
    failed = summary.numFailedTests + summary.numRuntimeErrorTestSuites;
  } catch {
    failed = Math.max(1, failed);
  }
  process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
  process.exit(result.status === 0 && failed === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`svc test: ${error.message}\n`);
  process.stdout.write('\ntests: 0 passed, 1 failed\n');
  process.exit(1);
});
