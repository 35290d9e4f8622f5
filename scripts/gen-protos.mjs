// Regenerates the TypeScript types of protos/ into libs/protos/src/generated with
// proto-loader's own generator (no download needed). Run after changing a .proto file.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const protosDir = join(root, 'protos');
const outDir = join(root, 'libs/protos/src/generated');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.proto')) files.push(relative(protosDir, path));
  }
};
walk(protosDir);
rmSync(outDir, { recursive: true, force: true });
const bin = join(root, 'libs/protos/node_modules/.bin/proto-loader-gen-types');
execFileSync(bin, ['--keepCase', '--longs=Number', '--enums=String', '--defaults', '--oneofs', '--grpcLib=@grpc/grpc-js', `--outDir=${outDir}`, '--includeComments', ...files, `--includeDirs=${protosDir}`], { stdio: 'inherit', cwd: protosDir });
// The generator names each type's .proto by absolute path; keep it relative to the repository, so
// the output is the same in every checkout.
const generated = [];
const collect = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path);
    else if (name.endsWith('.ts')) generated.push(path);
  }
};
collect(outDir);
for (const path of generated) {
  const text = readFileSync(path, 'utf8');
  const relativeText = text.split(`${root}`).join('');
  if (relativeText !== text) writeFileSync(path, relativeText);
}
process.stdout.write(`generated types for ${files.length} protos into ${relative(root, outDir)}\n`);
