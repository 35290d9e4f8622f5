// `npm run bench [-- name ...]`: runs the benchmarks one after another (all of them, or the named
// ones: transport, deployed, cpu-budget, edge-checks, fleet-overhead, billing, responses, background, public, batches; soak only when named), each in its own process. See bench/README.md.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ALL = ['transport', 'deployed', 'cpu-budget', 'edge-checks', 'fleet-overhead', 'billing', 'responses', 'background', 'public', 'batches'];
// Named only: ten minutes long.
const ON_REQUEST = ['soak'];
const dir = new URL('.', import.meta.url).pathname;
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
let failed = 0;
for (const name of names) {
  if (!ALL.includes(name) && !ON_REQUEST.includes(name)) {
    process.stderr.write(`bench: unknown benchmark "${name}" (one of ${ALL.join(', ')})\n`);
    process.exit(2);
  }
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(process.execPath, [join(dir, `${name}.mjs`)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
