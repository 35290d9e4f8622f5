// `npm run admin -- ...`: the billing admin CLI, against the development environment unless
// DATABASE_URL / REDIS_URL / REDIS_KEY_PREFIX say otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'services/billing/dist/cli/admin.js');
if (!existsSync(cli)) {
  process.stderr.write('admin: not built yet; run `npm start` (or `node scripts/setup.mjs`) first\n');
  process.exit(1);
}
// Own vendor keys (BYOK) are sealed under the development key unless BYOK_ENCRYPTION_KEY is set.
const keyFile = join(root, '.svc', 'byok-encryption-key');
const env = { ...process.env };
if (!env.BYOK_ENCRYPTION_KEY && existsSync(keyFile)) env.BYOK_ENCRYPTION_KEY = readFileSync(keyFile, 'utf8').trim();
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
