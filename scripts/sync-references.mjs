// Keeps each workspace package's tsconfig `references` equal to its @svc/* dependencies,
// so `tsc -b` builds libs before the packages that use them. Run after changing dependencies.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
for (const group of ['libs', 'services']) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    if (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'tsconfig.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
    const deps = Object.keys(pkg.dependencies ?? {}).filter((dep) => dep.startsWith('@svc/') && !dep.startsWith('@svc/service-')).sort();
    tsconfig.references = deps.map((dep) => ({ path: `../../libs/${dep.slice(5)}` }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2) + '\n');
  }
}
